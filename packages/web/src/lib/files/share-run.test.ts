import { describe, expect, it } from 'vitest';
import { ErrorCode, shareMessages, shareOperationMessages, type ShareFileRequest } from '@coffer/contracts';
import { exportPublicKeyB64, generateFileKey, unwrapFileKey, wrapFileKey } from '@coffer/crypto';
import { ApiRequestError } from '../api/http';
import { ownerKeyPair, recipientKeyPair } from '../transfers/testing/keys';
import { planShares, type ShareContact, type ShareFile } from './share-plan';
import {
  rewrapForRecipient,
  runSharePlan,
  shareFailureMessage,
  SharePreconditionError,
  type ShareEvent,
  type ShareRunDeps,
} from './share-run';

const ada: ShareContact = { email: 'ada@example.com', name: 'Ada', publicKey: 'PK-ADA', keyId: 'k-ada' };
const alan: ShareContact = { email: 'alan@example.com', name: 'Alan', publicKey: 'PK-ALAN', keyId: 'k-alan' };
const report: ShareFile = { id: 'f1', title: 'report.pdf', isEncrypted: true };
const photo: ShareFile = { id: 'f2', title: 'photo.png', isEncrypted: true };

const apiError = (status: number, code: string) =>
  new ApiRequestError(status, JSON.stringify({ code, message: code }));

/** Fake deps that log every step, so the order (and the pauses) can be checked. */
function fakeDeps(overrides: Partial<ShareRunDeps> = {}): {
  deps: ShareRunDeps;
  log: string[];
  posts: [string, ShareFileRequest][];
} {
  const log: string[] = [];
  const posts: [string, ShareFileRequest][] = [];
  const deps: ShareRunDeps = {
    privateKey: {} as CryptoKey,
    ownerFileKey: (fileId) => Promise.resolve(`owner-key-${fileId}`),
    rewrap: (key, _privateKey, publicKey) => Promise.resolve(`${key}->${publicKey}`),
    post: (fileId, body) => {
      log.push(`post ${fileId} ${body.email}`);
      posts.push([fileId, body]);
      return Promise.resolve({ ok: true });
    },
    sleep: (ms) => {
      log.push(`sleep ${ms}`);
      return Promise.resolve();
    },
    ...overrides,
  };
  return { deps, log, posts };
}

describe('runSharePlan', () => {
  it('shares with one contact at a time and pauses 1 second between contacts', async () => {
    const { deps, log, posts } = fakeDeps();
    const events: string[] = [];
    const result = await runSharePlan(
      planShares([ada, alan], [report, photo], new Map()),
      deps,
      (e: ShareEvent) => {
        events.push(`${e.type} ${e.file.id} ${e.contact.name}`);
      },
    );
    expect(log).toEqual([
      'post f1 ada@example.com',
      'post f2 ada@example.com',
      'sleep 1000',
      'post f1 alan@example.com',
      'post f2 alan@example.com',
    ]);
    expect(posts[0]).toEqual([
      'f1',
      { email: 'ada@example.com', encryptedFileKey: 'owner-key-f1->PK-ADA', keyVersion: 'k-ada' },
    ]);
    expect(result.shared).toHaveLength(4);
    expect(result.failed).toEqual([]);
    expect(events.slice(0, 2)).toEqual(['sharing f1 Ada', 'shared f1 Ada']);
  });

  it('refuses an unencrypted file, a contact without a key, a missing private key or file key', async () => {
    const cases: [Partial<ShareRunDeps>, ShareContact, ShareFile, string][] = [
      [{}, ada, { ...report, isEncrypted: false }, shareMessages.unencryptedFile],
      [{}, { ...ada, publicKey: null }, report, shareMessages.contactKeyRequired],
      [{ privateKey: null }, ada, report, shareMessages.privateKeyRequired],
      [{ ownerFileKey: () => Promise.resolve(null) }, ada, report, shareMessages.fileKeyMissing],
    ];
    for (const [overrides, contact, file, message] of cases) {
      const { deps, posts } = fakeDeps(overrides);
      const result = await runSharePlan({ steps: [{ contact, files: [file] }], pairCount: 1 }, deps);
      expect(result.failed.map((f) => f.message)).toEqual([message]);
      expect(posts).toEqual([]);
    }
  });

  it('goes on after a failed pair, but stops when the share limit is reached', async () => {
    let calls = 0;
    const { deps } = fakeDeps({
      post: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(apiError(409, ErrorCode.ALREADY_SHARED)) : Promise.resolve({});
      },
    });
    const result = await runSharePlan(planShares([ada, alan], [report], new Map()), deps);
    expect(result.failed.map((f) => f.message)).toEqual([shareOperationMessages.alreadyShared]);
    expect(result.shared).toHaveLength(1);

    const limited = fakeDeps({ post: () => Promise.reject(apiError(403, ErrorCode.SHARE_LIMIT_REACHED)) });
    const stopped = await runSharePlan(planShares([ada, alan], [report], new Map()), limited.deps);
    expect(stopped.stopped).toBe(true);
    expect(stopped.failed.map((f) => f.message)).toEqual([shareOperationMessages.limitReached]);
  });
});

describe('runSharePlan with a batch call', () => {
  const withBatch = (postBatch: ShareRunDeps['postBatch']) => {
    const batches: [string, string[]][] = [];
    const fake = fakeDeps({
      postBatch: (email, files) => {
        batches.push([email, files.map((f) => f.fileId)]);
        return postBatch === undefined ? Promise.resolve({}) : postBatch(email, files);
      },
    });
    return { ...fake, batches };
  };

  it("posts a contact's several files in one request and one file through the spec's call", async () => {
    const { deps, posts, batches, log } = withBatch(undefined);
    const events: string[] = [];
    const plan = {
      steps: [
        { contact: ada, files: [report, photo] },
        { contact: alan, files: [report] },
      ],
      pairCount: 3,
    };
    const result = await runSharePlan(plan, deps, (e) =>
      events.push(`${e.type} ${e.file.id} ${e.contact.name}`),
    );
    expect(batches).toEqual([['ada@example.com', ['f1', 'f2']]]);
    expect(posts.map(([fileId, body]) => `${fileId} ${body.email}`)).toEqual(['f1 alan@example.com']);
    expect(log).toEqual(['sleep 1000', 'post f1 alan@example.com']);
    expect(result.shared).toHaveLength(3);
    expect(events).toEqual([
      'sharing f1 Ada',
      'sharing f2 Ada',
      'shared f1 Ada',
      'shared f2 Ada',
      'sharing f1 Alan',
      'shared f1 Alan',
    ]);
  });

  it('sends the wrapped keys and grants without the email, and fails every file of a refused batch', async () => {
    const sign = (fileId: string, body: ShareFileRequest) =>
      Promise.resolve({ ...body, shareGrant: `g-${fileId}` });
    const sent: unknown[] = [];
    const ok = fakeDeps({
      sign,
      postBatch: (_email, files) => {
        sent.push(...files);
        return Promise.resolve({});
      },
    });
    await runSharePlan(planShares([ada], [report, photo], new Map()), ok.deps);
    expect(sent).toEqual([
      { fileId: 'f1', encryptedFileKey: 'owner-key-f1->PK-ADA', keyVersion: 'k-ada', shareGrant: 'g-f1' },
      { fileId: 'f2', encryptedFileKey: 'owner-key-f2->PK-ADA', keyVersion: 'k-ada', shareGrant: 'g-f2' },
    ]);

    const { deps } = withBatch(() => Promise.reject(apiError(403, ErrorCode.SHARE_LIMIT_REACHED)));
    const stopped = await runSharePlan(planShares([ada, alan], [report, photo], new Map()), deps);
    expect(stopped.stopped).toBe(true);
    expect(stopped.shared).toEqual([]);
    expect(stopped.failed.map((f) => `${f.file.id} ${f.message}`)).toEqual([
      `f1 ${shareOperationMessages.limitReached}`,
      `f2 ${shareOperationMessages.limitReached}`,
    ]);
  });

  it('leaves a file that cannot be shared out of the batch and posts the rest', async () => {
    const { deps, batches, posts } = withBatch(undefined);
    const draft: ShareFile = { id: 'f3', title: 'draft.txt', isEncrypted: false };
    const result = await runSharePlan(planShares([ada], [report, draft, photo], new Map()), deps);
    expect(batches).toEqual([['ada@example.com', ['f1', 'f2']]]);
    expect(posts).toEqual([]);
    expect(result.failed.map((f) => `${f.file.id} ${f.message}`)).toEqual([
      `f3 ${shareMessages.unencryptedFile}`,
    ]);
  });
});

describe('shareFailureMessage', () => {
  it('maps server codes through the mapping that knows them', () => {
    expect(shareFailureMessage(apiError(500, ErrorCode.SHARE_FAILED), true)).toBe(
      shareMessages.shareFailedRetry,
    );
    expect(shareFailureMessage(apiError(400, ErrorCode.INVALID_OPERATION), true)).toBe(
      shareMessages.invalidOperation,
    );
    expect(shareFailureMessage(apiError(400, ErrorCode.INVALID_RECIPIENT), false)).toBe(
      shareOperationMessages.invalidRecipient,
    );
    expect(shareFailureMessage(apiError(404, ErrorCode.FILE_NOT_FOUND), false)).toBe(shareMessages.fileGone);
    expect(shareFailureMessage(apiError(404, ErrorCode.FILE_NOT_FOUND), true)).toBe(
      shareOperationMessages.fileGone,
    );
    expect(shareFailureMessage(apiError(401, ErrorCode.UNAUTHORIZED), false)).toBe(
      shareMessages.noPermission,
    );
    expect(shareFailureMessage(new ApiRequestError(502, 'Bad gateway'), false)).toBe(
      shareMessages.defaultError,
    );
    expect(shareFailureMessage(new ApiRequestError(502, 'Bad gateway'), true)).toBe(
      shareOperationMessages.defaultError,
    );
    expect(shareFailureMessage(new SharePreconditionError('why'), true)).toBe('why');
  });
});

describe('rewrapForRecipient', () => {
  it('re-encrypts the owner copy of a file key so that the recipient can open it', async () => {
    const owner = await ownerKeyPair();
    const recipient = await recipientKeyPair();
    const fileKey = await generateFileKey();
    const ownerCopy = await wrapFileKey(fileKey, owner.publicKey);
    const recipientCopy = await rewrapForRecipient(
      ownerCopy,
      owner.privateKey,
      await exportPublicKeyB64(recipient.publicKey),
    );
    expect(recipientCopy).not.toBe(ownerCopy);
    const opened = await unwrapFileKey(recipientCopy, recipient.privateKey);
    expect(opened.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    await expect(unwrapFileKey(recipientCopy, owner.privateKey)).rejects.toThrow();
  });
});
