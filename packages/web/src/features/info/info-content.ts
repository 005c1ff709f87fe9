/**
 * The built-in Terms, Privacy, FAQ and About pages. Operators replace them by pointing the footer
 * elsewhere (VITE_TERMS_URL, VITE_PRIVACY_URL, VITE_FAQ_URL, VITE_ABOUT_URL). Privacy and About must
 * stay true to what the server stores: update them with any change to the data model.
 */
export type InfoPageId = 'terms' | 'privacy' | 'faq' | 'about';

export interface InfoSection {
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

export interface InfoPageContent {
  readonly title: string;
  readonly lead: string;
  readonly sections: readonly InfoSection[];
}

export const infoPages: Readonly<Record<InfoPageId, InfoPageContent>> = {
  about: {
    title: 'About Coffer',
    lead: 'Coffer stores and shares files that are encrypted on your device before they are uploaded, so the server keeps only data it cannot read.',
    sections: [
      {
        heading: 'How the encryption works',
        paragraphs: [
          'Every file gets its own random 256-bit AES-GCM key, and is encrypted in your browser in chunks. Each chunk is authenticated, so a changed, reordered or cut-off file fails to decrypt instead of opening wrongly.',
          'The file key is locked with your RSA-OAEP public key. Your private key is itself encrypted with a key derived from your master unlock key (PBKDF2-SHA-256), which never leaves your device.',
          'To share a file, your browser locks its key again with the recipient’s public key. Only they can open it; revoking removes their copy of the key.',
        ],
      },
      {
        heading: 'What Coffer cannot protect',
        paragraphs: [
          'The server sees who you are, who your contacts are, how your files and folders nest, and the sizes and dates of your files. It cannot read file contents, and cannot read file or folder names once your browser has encrypted them (it does so for older files at your next unlock).',
          'If you forget your master unlock key, nobody can recover your files: resetting encryption creates new keys, and files locked with the old ones stay unreadable.',
          'Coffer runs in your browser: you trust the code the server delivers each time you open it.',
        ],
      },
    ],
  },
  faq: {
    title: 'Frequently asked questions',
    lead: 'Short answers about accounts, encryption and sharing.',
    sections: [
      {
        heading: 'What is the master unlock key?',
        paragraphs: [
          'A password, separate from your sign-in password, that unlocks your encryption keys on this device. The server never receives it, so it cannot reset it for you.',
        ],
      },
      {
        heading: 'I forgot my master unlock key. Can I get my files back?',
        paragraphs: [
          'No. This is what end-to-end encryption means: without the key, nobody can decrypt your files, including us. You can reset encryption and upload again; files shared with you before the reset must be shared again.',
        ],
      },
      {
        heading: 'Who can read my files?',
        paragraphs: ['You, and the contacts you share a file with. The server stores encrypted bytes only.'],
      },
      {
        heading: 'Why must a contact have an account before I can share with them?',
        paragraphs: [
          'A file is shared by locking its key with the contact’s public key, which exists only once they have set up encryption. Until then, invite them.',
        ],
      },
      {
        heading: 'How large can files be?',
        paragraphs: [
          'Large files are encrypted and uploaded in 95 MB parts, so their size is limited by your plan’s storage rather than by the browser.',
        ],
      },
    ],
  },
  privacy: {
    title: 'Privacy',
    lead: 'What this Coffer server stores about you, and what it never receives.',
    sections: [
      {
        heading: 'What the server stores',
        paragraphs: [
          'Your account: name, email address, country and sign-in provider, as your identity provider tells us; your plan and, with paid plans, the payment provider’s customer and subscription references.',
          'Your files as encrypted bytes, with their sizes and upload dates, and whom each file or folder is shared with. File and folder names and content types are encrypted in your browser; the server keeps them in clear only for files uploaded before, until your next unlock.',
          'Your contacts’ names and email addresses, and the invitations you send.',
          'Your public key, and your private key encrypted with your master unlock key, which the server cannot decrypt.',
          'Counts of uploads and downloads for your plan’s limits, and the feedback you send with your email address.',
        ],
      },
      {
        heading: 'What the server never receives',
        paragraphs: [
          'The contents of your files, their encryption keys, your private key in usable form, and your master unlock key.',
        ],
      },
      {
        heading: 'Email and analytics',
        paragraphs: [
          'The server sends email to confirm your address, and to people you invite or share with.',
          'When the operator turns on product analytics, Coffer asks you first and sends nothing (and does not even load the analytics library) until you agree; you can change your answer on your Profile page. The usage events never include file names, email addresses or keys, and name you only by a one-way pseudonym.',
        ],
      },
      {
        heading: 'Deleting data',
        paragraphs: [
          'Deleting a file removes its encrypted bytes and its shares. Contact the operator of this server to delete your account.',
        ],
      },
    ],
  },
  terms: {
    title: 'Terms of use',
    lead: 'Template terms: the operator of this Coffer server replaces this page with its own (VITE_TERMS_URL).',
    sections: [
      {
        heading: 'The service',
        paragraphs: [
          'This server stores encrypted files for registered users and lets them share those files with other users. It is provided as is, within the limits of your plan.',
        ],
      },
      {
        heading: 'Your responsibilities',
        paragraphs: [
          'Keep your sign-in password and master unlock key safe: a lost master unlock key cannot be recovered, and files encrypted with it are lost.',
          'Store and share only content you have the right to, and respect the law that applies to you and the people you share with.',
        ],
      },
      {
        heading: 'Plans and payment',
        paragraphs: [
          'Paid plans renew each period until cancelled in the billing portal; a cancelled plan stays active until the end of the period paid for.',
        ],
      },
      {
        heading: 'Changes and contact',
        paragraphs: [
          'The operator may change these terms and will tell users of material changes. Questions go to the operator of this server.',
        ],
      },
    ],
  },
};
