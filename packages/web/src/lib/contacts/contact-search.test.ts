import { describe, expect, it } from 'vitest';
import { contactInitials, filterContacts, sortContacts } from './contact-search';

const people = [
  { name: 'Zoë Kravitz', email: 'zoe@example.com' },
  { name: 'Alan Turing', email: 'alan@bletchley.uk' },
  { name: 'ada lovelace', email: 'ada@example.com' },
];

describe('filterContacts', () => {
  it('keeps everyone for a blank search', () => {
    expect(filterContacts(people, '')).toHaveLength(3);
    expect(filterContacts(people, '   ')).toHaveLength(3);
  });

  it('matches name or email, ignoring case, accents and surrounding spaces', () => {
    expect(filterContacts(people, 'TURING').map((p) => p.name)).toEqual(['Alan Turing']);
    expect(filterContacts(people, ' bletchley ').map((p) => p.name)).toEqual(['Alan Turing']);
    expect(filterContacts(people, 'zoe k').map((p) => p.name)).toEqual(['Zoë Kravitz']);
    expect(filterContacts(people, 'example.com').map((p) => p.name)).toEqual(['Zoë Kravitz', 'ada lovelace']);
    expect(filterContacts(people, 'nobody')).toEqual([]);
  });
});

describe('sortContacts', () => {
  it('sorts by name regardless of case, then by email, without changing the input', () => {
    const twins = [...people, { name: 'Alan Turing', email: 'a@example.com' }];
    expect(sortContacts(twins).map((p) => p.email)).toEqual([
      'ada@example.com',
      'a@example.com',
      'alan@bletchley.uk',
      'zoe@example.com',
    ]);
    expect(twins[0]?.name).toBe('Zoë Kravitz');
  });
});

describe('contactInitials', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['ada', 'A'],
    ['Grace Brewster Murray Hopper', 'GH'],
    ['  Émile  Zola ', 'ÉZ'],
    ['李 小龍', '李小'],
    ['(Bob) Smith', 'BS'],
  ])('%s → %s', (name, initials) => {
    expect(contactInitials(name)).toBe(initials);
  });

  it('falls back to the email, then to "?"', () => {
    expect(contactInitials('', 'zed@example.com')).toBe('Z');
    expect(contactInitials('  ', '')).toBe('?');
    expect(contactInitials('🙂', '')).toBe('?');
  });
});
