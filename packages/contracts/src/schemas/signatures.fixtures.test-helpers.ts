/** Records written by @coffer/crypto: copied from packages/crypto/test-vectors/signatures-v1.json. */
export const signingPublicKeyB64 = 'MCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';
export const keyBindingJson =
  '{"v":1,"type":"key-binding","email":"alice@example.com","keyId":"key-1","publicKeySha256Hex":"9a2888280e3bf964506073d8cb7aa49b192653fcdf5962b4c93680f56149982a","signingKeySha256Hex":"06e3fd8fda29bb60ab59557de61edb0aecdb231134be30e75b455f8e1b792fa9","signingAlgorithm":"Ed25519","createdAt":"2026-01-02T03:04:05.678Z","signatureB64":"5pkqZCzE3Nilemiu8LkTtesaDARbhJRiwibID6aEijt5kPP2yvsUcrR97wVemaFUz0KNyMKiywYCgR93cLxyBQ=="}';
export const fileManifestJson =
  '{"v":1,"type":"file-manifest","ownerEmail":"alice@example.com","ownerKeyId":"key-1","ownerWrappedKeySha256Hex":"344163592889a69f5612a384f45ac004ba3093100de21ea0e381919b0ca8e03f","name":"R\u00e9sum\u00e9 2026.pdf","contentType":"application/pdf","size":250000000,"chunkSize":99614720,"chunkCount":3,"signedAt":"2026-01-02T03:05:00.000Z","signatureB64":"1TNiRbWsnHXcncrhnt6+XcT7JRyPSWolRHvGOu8B2styUcaWoUTPqKE9NRPQ4K8FWnD7UGYsxq+FjkoyuXxUAA=="}';
export const shareGrantJson =
  '{"v":1,"type":"share-grant","fileId":"file-1","ownerEmail":"alice@example.com","recipientEmail":"bob@example.com","recipientKeyId":"key-7","recipientKeySha256Hex":"9a2888280e3bf964506073d8cb7aa49b192653fcdf5962b4c93680f56149982a","wrappedKeySha256Hex":"344163592889a69f5612a384f45ac004ba3093100de21ea0e381919b0ca8e03f","manifestSha256Hex":"95601e6dc6659c5a576383a173a03adabce0c1be20ca5b9eb292ffd166eb7ff4","signedAt":"2026-01-02T03:06:00.000Z","signatureB64":"b8bgx9Ge8e8XfS74kMsghk7LRMxvL4yqtl9dY7nasgh47SmFUV4rUpsdSe9a6hgY3xUTZKHW1DNeaFUBpuFbDQ=="}';
export const pinSetJson =
  '{"v":1,"type":"pin-set","version":1,"wrappedKeyB64":"G1eKt7cJTtsrJB2aSrWAgEqFtRJyacxg3T3M0+6pSW5l7CEDs0tNj1BtMbi09Rwg9SEHy1/pl2tr5ZB6VafHxC7uSJGKKoQC75/XZXDP7hXZo8sFuefuaASAdqn2IkDwo45DDQW4JboXEevDPeoUMNRFojsZu/eFA1qDUOzbHFShzsbPlzl0592IwY9DLEgz/C/sk5wY+TbZ3FpTp6bDYhvDi39aDghfsY/z2EaoDoiYpd9sZHnACUkQErz96vsqXkm3qovbYZQubFt/AoRjfU0cuBivIJLFK6AL50ZBYDmtRNouoI2GTzWgQ7vJPpPOpE5d9R8bCZnlsCLRFTD1NQ==","ivB64":"oKGio6Slpqeoqaqr","dataB64":"BR7SUbak6cXPCpeLCn8Gz/8M4z1nzwRHYvOilfFcjZpwN33RfsiuCqaH/Y4hG7/SVCMOTpvs0yQUF8sE7vTI9BACqq6b/lGwNnuLYL1tuQ9eyFhEFBrdz8ykCIdqfkgzAy+/BNRXb3UxVzftsDWihJiVRDLl1gL8biMG2sNYL3lzBF/MY5dW10cjvgsDOnD5waWGA/NYI/NgNeh4rMoZw3L94Tm8SnNIDblRdBtpZ4acIMnRNlmflVpfChCB6KfE5uKAh2nXlnNg/v/6lqISFsJ6lIGHsh3v5aEyZ/WwLXreLlcU1O8u6k3+ymU9TOhf7wxktuR4bUjmoP4KCrk63H30vv9qtWPooarZkFLOuQK2Yfj1XtD304+ju4uo5tdd9l3Lvu8/24keuuFM","signatureB64":"En6CZlavYZsj3AhxvJ6arjAZiJ4ZvsSdy1cTDGg4ljko7yWV9hnO1iCsf2MT/6ENLTrJc7/0QsMBVGPS3szUDw=="}';
export const encryptedSigningKeyJson = JSON.stringify({
  iv: 'AAAAAAAAAAAAAAAA',
  salt: 'AAAAAAAAAAAAAAAAAAAAAA==',
  data: 'AAAA'.repeat(32),
  kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 },
  alg: 'Ed25519',
});
