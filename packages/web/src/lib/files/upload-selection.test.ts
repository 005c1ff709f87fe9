import { describe, expect, it } from 'vitest';
import { uploadMessages } from '@coffer/contracts';
import { addToSelection, READY_TEXT, selectionMessages, uploadRowState } from './upload-selection';

const f = (name: string, size = 10) => ({ name, size });

describe('addToSelection', () => {
  it('refuses a file with the same name and size, in the list or in the same drop', () => {
    const result = addToSelection([f('a.txt')], [f('a.txt'), f('a.txt', 11), f('b.txt'), f('b.txt')]);
    expect(result.accepted).toEqual([f('a.txt', 11), f('b.txt')]);
    expect(result.duplicates).toEqual([f('a.txt'), f('b.txt')]);
    expect(selectionMessages(result)).toEqual([uploadMessages.fileAlreadyAdded]);
  });

  it('holds at most 10 files', () => {
    const nine = Array.from({ length: 9 }, (_, i) => f(`${i}.bin`));
    const result = addToSelection(nine, [f('x'), f('y'), f('z')]);
    expect(result.accepted).toEqual([f('x')]);
    expect(result.overLimit).toEqual([f('y'), f('z')]);
    expect(selectionMessages(result)).toEqual([uploadMessages.tooManyFiles]);
    expect(
      addToSelection(
        [],
        Array.from({ length: 12 }, (_, i) => f(`${i}`)),
      ).accepted,
    ).toHaveLength(10);
  });

  it('adds nothing while an upload runs', () => {
    const result = addToSelection([], [f('a')], { busy: true });
    expect(result.accepted).toEqual([]);
  });
});

describe('uploadRowState', () => {
  const transfer = (status: 'queued' | 'processing' | 'complete' | 'failed' | 'aborted', progress = 0) => ({
    status,
    progress,
    statusText: status === 'queued' ? 'Queued (1 of 2)' : 'Encrypting chunk 1 of 2...',
    error: status === 'failed' ? 'Network error during upload' : null,
  });

  it('is ready before Upload Files is pressed', () => {
    expect(uploadRowState(undefined)).toMatchObject({ phase: 'ready', text: READY_TEXT, active: false });
  });

  it('is a grey bar with a Queued badge while queued', () => {
    expect(uploadRowState(transfer('queued'))).toMatchObject({
      phase: 'queued',
      color: 'gray',
      badge: 'Queued',
      text: 'Queued (1 of 2)',
      active: true,
    });
  });

  it('is a blue bar with a Processing badge until bytes go out, then green with a percentage', () => {
    expect(uploadRowState(transfer('processing'))).toMatchObject({ color: 'blue', badge: 'Processing' });
    expect(uploadRowState(transfer('processing', 42.5))).toMatchObject({
      phase: 'uploading',
      color: 'green',
      badge: null,
      barValue: 42.5,
      percentLabel: '42.5%',
    });
  });

  it('shows the error of a failed upload', () => {
    expect(uploadRowState(transfer('failed'))).toMatchObject({
      color: 'red',
      text: 'Network error during upload',
    });
    expect(uploadRowState(undefined, 'Storage quota exceeded.')).toMatchObject({
      phase: 'failed',
      text: 'Storage quota exceeded.',
    });
  });
});
