import { describe, expect, it } from 'vitest';
import { invitationMail, shareNotificationMail } from './mail-templates.js';

const APP_URL = 'https://coffer.example.com';

/** Every href in the HTML, with entities decoded. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'));
}

describe('invitationMail', () => {
  const mail = invitationMail({
    inviterName: 'Ada Lovelace',
    inviterEmail: 'ada+work@example.com',
    to: 'bob@example.org',
    appUrl: `${APP_URL}/`,
  });
  const link = 'https://coffer.example.com/invite/ada%2Bwork%40example.com?reason=invite-email';

  it('addresses the invitee and names the inviter, with the verified address, in the subject', () => {
    expect(mail.to).toBe('bob@example.org');
    expect(mail.subject).toBe('Ada Lovelace (ada+work@example.com) invited you to Coffer');
  });

  it('links to the invite page with the encoded inviter email, in text and HTML', () => {
    expect(mail.text).toContain(link);
    expect(hrefs(mail.html)).toEqual([link, link]);
  });

  it("shows the inviter's address next to the name", () => {
    expect(mail.text).toContain('Ada Lovelace (ada+work@example.com) invited you');
    expect(mail.html).toContain('Ada Lovelace (ada+work@example.com) invited you');
  });

  it('falls back to the email when there is no name', () => {
    const noName = invitationMail({
      inviterName: '  ',
      inviterEmail: 'ada@example.com',
      to: 'b@example.org',
      appUrl: APP_URL,
    });
    expect(noName.subject).toBe('ada@example.com invited you to Coffer');
    expect(noName.text).toContain('ada@example.com invited you');
    expect(noName.text).not.toContain('(ada@example.com)');
  });
});

describe('shareNotificationMail', () => {
  const mail = shareNotificationMail({
    ownerName: 'Ada Lovelace',
    ownerEmail: 'ada@example.com',
    to: 'bob@example.org',
    fileIds: ['3f2a9c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b'],
    appUrl: APP_URL,
  });
  const link = 'https://coffer.example.com/share/3f2a9c1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b';

  it('says who shared a file, in the subject and the body', () => {
    expect(mail.to).toBe('bob@example.org');
    expect(mail.subject).toBe('Ada Lovelace (ada@example.com) shared a file with you on Coffer');
    expect(mail.text).toContain('Ada Lovelace (ada@example.com) shared a file with you');
  });

  it('links to the share page in text and HTML', () => {
    expect(mail.text).toContain(link);
    expect(hrefs(mail.html)).toEqual([link, link]);
  });

  it('has no way to carry a file name', () => {
    // The input type has no file name field; the message mentions only "a file".
    const withExtra = shareNotificationMail({
      ...{
        ownerName: 'Ada',
        ownerEmail: 'ada@example.com',
        to: 'b@example.org',
        fileIds: ['f1'],
        appUrl: APP_URL,
      },
      ...({ fileName: 'tax-return-2024.pdf', title: 'tax-return-2024.pdf' } as object),
    });
    const all = `${withExtra.subject}\n${withExtra.text}\n${withExtra.html}`;
    expect(all).not.toContain('tax-return');
  });

  it('encodes the file id in the link', () => {
    const odd = shareNotificationMail({
      ownerName: 'A',
      ownerEmail: 'a@example.com',
      to: 'b@example.org',
      fileIds: ['x/../y?z'],
      appUrl: APP_URL,
    });
    expect(odd.text).toContain('https://coffer.example.com/share/x%2F..%2Fy%3Fz');
  });

  it('tells the number of files of one share action and links to Shared With Me, naming none', () => {
    const batch = shareNotificationMail({
      ownerName: 'Ada Lovelace',
      ownerEmail: 'ada@example.com',
      to: 'bob@example.org',
      fileIds: ['f1', 'f2', 'f3', 'f4'],
      appUrl: `${APP_URL}/`,
    });
    expect(batch.subject).toBe('Ada Lovelace (ada@example.com) shared 4 files with you on Coffer');
    expect(batch.text).toContain('Ada Lovelace (ada@example.com) shared 4 files with you on Coffer.');
    expect(hrefs(batch.html)).toEqual([`${APP_URL}/sharedwithme`, `${APP_URL}/sharedwithme`]);
    expect(`${batch.text}${batch.html}`).not.toMatch(/\/share\/f\d/);
  });
});

describe('escaping', () => {
  const hostile = 'Eve <script>alert("x")</script> & \'friends\'';

  it('escapes names in the HTML of both mails', () => {
    const mails = [
      invitationMail({
        inviterName: hostile,
        inviterEmail: 'eve@example.com',
        to: 'b@example.org',
        appUrl: APP_URL,
      }),
      shareNotificationMail({
        ownerName: hostile,
        ownerEmail: 'eve@example.com',
        to: 'b@example.org',
        fileIds: ['f1'],
        appUrl: APP_URL,
      }),
    ];
    for (const mail of mails) {
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toContain('"x"');
      expect(mail.html).toContain(
        'Eve &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;',
      );
      // Plain text and subject keep the name as written: they are not HTML.
      expect(mail.text).toContain(hostile);
      expect(mail.subject).toContain(hostile);
    }
  });

  it('escapes an inviter email that would break out of the href', () => {
    const mail = invitationMail({
      inviterName: 'Eve',
      inviterEmail: '"><script>@example.com',
      to: 'b@example.org',
      appUrl: APP_URL,
    });
    expect(mail.html).not.toContain('<script>');
    for (const href of hrefs(mail.html)) expect(href).toContain('%22%3E%3Cscript%3E%40example.com');
  });

  it('keeps names on one line and bounded, so they cannot add header lines', () => {
    const mail = shareNotificationMail({
      ownerName: `Eve\r\nBcc: victim@example.com\t${'x'.repeat(200)}`,
      ownerEmail: 'eve@example.com',
      to: 'b@example.org',
      fileIds: ['f1'],
      appUrl: APP_URL,
    });
    expect(mail.subject).not.toMatch(/[\r\n\t]/);
    expect(mail.subject.startsWith('Eve Bcc: victim@example.com x')).toBe(true);
    // The chosen name is cut to 80 characters; the real address always follows it.
    expect(mail.subject).toContain('… (eve@example.com) shared a file');
    expect(mail.subject.length).toBeLessThanOrEqual(
      80 + ' (eve@example.com) shared a file with you on Coffer'.length,
    );
  });
});

describe('unicode names', () => {
  it('keeps non-ASCII names in subject, text and HTML', () => {
    const mail = shareNotificationMail({
      ownerName: 'Zoë 日本',
      ownerEmail: 'zoe@example.com',
      to: 'b@example.org',
      fileIds: ['f1'],
      appUrl: APP_URL,
    });
    expect(mail.subject).toBe('Zoë 日本 (zoe@example.com) shared a file with you on Coffer');
    expect(mail.html).toContain('Zoë 日本 (zoe@example.com)');
  });
});
