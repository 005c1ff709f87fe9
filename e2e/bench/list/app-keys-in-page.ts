// Plain JavaScript for the benchmark's page (a string, embedded in the other page scripts): the app's
// own unlocked keys (non-extractable CryptoKeys) from its IndexedDB entry, and its bearer token,
// read at each call (a long seed outlives an access token; the app renews it as it loads).
export const APP_KEYS_IN_PAGE = `async () => {
  const handle = sessionStorage.getItem('encryptionDerivedKey');
  const entry = await new Promise((resolve, reject) => {
    const open = indexedDB.open('coffer-keys', 1);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('unlocked-keys').objectStore('unlocked-keys').get(handle);
      get.onsuccess = () => resolve(get.result);
      get.onerror = () => reject(get.error);
    };
  });
  if (!entry || !entry.driveKey || !entry.signingPrivateKey) throw new Error('no unlocked drive key');
  const auth = () => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
    return { Authorization: 'Bearer ' + JSON.parse(localStorage.getItem(key) ?? '{}').access_token };
  };
  return { entry, auth };
}`;
