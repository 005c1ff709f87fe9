// Test support: reads the messages nodemailer writes (headers, multipart/alternative, quoted-printable
// or base64 bodies, RFC 2047 encoded words) well enough for the contract tests to check them. Not a
// general MIME parser; production code never parses mail.

export interface ParsedMail {
  headers: Map<string, string>;
  to: string;
  from: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Unfold continuation lines, then split "Name: value".
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): Uint8Array {
  const softBroken = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBroken.length; i++) {
    const char = softBroken[i] ?? '';
    const hex = softBroken.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(char));
    }
  }
  return Uint8Array.from(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  let decoded = part.body;
  if (encoding === 'base64') decoded = Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') decoded = new TextDecoder().decode(decodeQuotedPrintable(part.body));
  return decoded.replace(/\r\n/g, '\n');
}

/** Decodes `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words; whitespace between adjacent words is dropped. */
export function decodeHeader(value: string): string {
  const word = /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g;
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(word, (_match, _charset: string, mode: string, data: string) =>
      mode.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : new TextDecoder().decode(decodeQuotedPrintable(data.replace(/_/g, ' '))),
    );
}

function boundaryOf(contentType: string): string | undefined {
  return /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
}

function leafParts(part: Part): Part[] {
  const contentType = part.headers.get('content-type') ?? 'text/plain';
  const boundary = boundaryOf(contentType);
  if (!contentType.toLowerCase().startsWith('multipart/') || boundary === undefined) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => leafParts(splitPart(section.replace(/^\n/, ''))));
}

/** Reads one message as written by nodemailer (CRLF or LF line ends). */
export function parseEml(raw: string): ParsedMail {
  const top = splitPart(raw);
  const leaves = leafParts(top);
  const bodyOf = (type: string): string => {
    const leaf = leaves.find((p) => (p.headers.get('content-type') ?? '').toLowerCase().startsWith(type));
    // Bodies end with the line break before the next boundary; that break is not content.
    return leaf === undefined ? '' : decodeBody(leaf).replace(/\n$/, '');
  };
  const header = (name: string): string => decodeHeader(top.headers.get(name) ?? '');
  return {
    headers: top.headers,
    to: header('to'),
    from: header('from'),
    subject: header('subject'),
    messageId: header('message-id'),
    text: bodyOf('text/plain'),
    html: bodyOf('text/html'),
  };
}
