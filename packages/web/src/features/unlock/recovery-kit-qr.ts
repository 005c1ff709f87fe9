import { toDataURL } from 'qrcode';

/**
 * The words as a QR code (PNG data URL), for the printed kit: a phone can read them back instead of
 * typing 24 words. Made in the browser; the words go nowhere else.
 */
export function recoveryWordsQr(words: readonly string[]): Promise<string> {
  return toDataURL(words.join(' '), { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}
