import { describe, expect, it } from 'vitest';
import { AVATAR_PALETTE, avatarColorFor } from './avatar-colors.js';
import { COLOR_PATTERN } from './schemas/common.js';

describe('avatarColorFor', () => {
  it('picks a palette colour for any hash, wrapping around', () => {
    expect(avatarColorFor(0)).toBe(AVATAR_PALETTE[0]);
    expect(avatarColorFor(AVATAR_PALETTE.length + 2)).toBe(AVATAR_PALETTE[2]);
    expect(avatarColorFor(0xffffffff)).toBe(AVATAR_PALETTE[0xffffffff % AVATAR_PALETTE.length]);
  });

  it('only holds colours a Contact may carry', () => {
    for (const colour of AVATAR_PALETTE) expect(colour).toMatch(new RegExp(COLOR_PATTERN));
  });
});
