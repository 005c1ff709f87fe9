import { describe, expect, it } from 'vitest';
import {
  canShare,
  contactAvailability,
  existingSharesOf,
  fileAvailability,
  planShares,
  type ShareContact,
  type ShareFile,
} from './share-plan';

const ada: ShareContact = { email: 'ada@example.com', name: 'Ada', publicKey: 'AAAA', keyId: 'k-ada' };
const alan: ShareContact = { email: 'Alan@Example.com', name: 'Alan', publicKey: 'BBBB', keyId: 'k-alan' };
const eve: ShareContact = { email: 'eve@example.com', name: 'Eve', publicKey: null, keyId: null };
const report: ShareFile = { id: 'f1', title: 'report.pdf', isEncrypted: true };
const photo: ShareFile = { id: 'f2', title: 'photo.png', isEncrypted: true };
const legacy: ShareFile = { id: 'f3', title: 'old.txt', isEncrypted: false };

// report is shared with Ada already; Alan's share is stored lower-case.
const existing = existingSharesOf([
  ['f1', [{ email: 'ada@example.com' }, { email: 'alan@example.com' }]],
  ['f2', []],
]);

describe('which contacts can be picked', () => {
  it('never offers an unverified contact', () => {
    expect(contactAvailability(eve, [], existing)).toBe('unverified');
    expect(contactAvailability(eve, ['f2'], existing)).toBe('unverified');
    expect(contactAvailability({ ...ada, keyId: '' }, [], existing)).toBe('unverified');
  });

  it('does not let a contact that already has every chosen file be selected again', () => {
    expect(contactAvailability(ada, ['f1'], existing)).toBe('already-shared');
    // Emails compare case-insensitively.
    expect(contactAvailability(alan, ['f1'], existing)).toBe('already-shared');
    expect(contactAvailability(ada, ['f1', 'f2'], existing)).toBe('selectable');
    expect(contactAvailability(ada, [], existing)).toBe('selectable');
  });
});

describe('which files can be picked', () => {
  it('refuses unencrypted files and files every chosen contact has', () => {
    expect(fileAvailability(legacy, [], existing)).toBe('unencrypted');
    expect(fileAvailability(report, ['ada@example.com'], existing)).toBe('already-shared');
    expect(fileAvailability(report, ['ada@example.com', 'eve@example.com'], existing)).toBe('selectable');
    expect(fileAvailability(photo, ['ada@example.com'], existing)).toBe('selectable');
  });
});

describe('planShares', () => {
  it('needs a contact and a file for the Share button', () => {
    expect(canShare([], [report])).toBe(false);
    expect(canShare([ada], [])).toBe(false);
    expect(canShare([ada], [report])).toBe(true);
  });

  it('groups the new pairs by contact and skips existing ones', () => {
    const plan = planShares([ada, alan], [report, photo], existing);
    expect(plan.pairCount).toBe(2);
    expect(plan.steps.map((s) => [s.contact.name, s.files.map((f) => f.id)])).toEqual([
      ['Ada', ['f2']],
      ['Alan', ['f2']],
    ]);
  });

  it('has nothing to do when every pair exists (No new files to share)', () => {
    const plan = planShares([ada, alan], [report], existing);
    expect(plan).toEqual({ steps: [], pairCount: 0 });
  });

  it('ignores duplicates in the choice', () => {
    const plan = planShares([ada, { ...ada, email: 'ADA@example.com' }], [photo, photo], existing);
    expect(plan.pairCount).toBe(1);
  });
});
