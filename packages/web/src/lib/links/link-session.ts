import { LINK_DOWNLOAD_HEADER } from '@coffer/contracts';
import { bytesToBase64Url } from '@coffer/crypto';

/**
 * A link page's download session (docs/key-hierarchy.md, "Counting a link's downloads"): a random
 * token this page chooses and sends as `X-Link-Download` with every content request. The server
 * counts ONE download of the link when it first sees a session; with it, every file of the link
 * starts and resumes without counting again. Starting a file this session already started would
 * count anew, so the page then begins a new session itself: `begin` says whether that happens.
 */
export class LinkDownloadSession {
  private token: string | null = null;
  private readonly started = new Set<string>();

  /**
   * Before downloading these files (one, or all of them as a ZIP): keeps the session when none of
   * them was started in it yet, else begins a new one. True when the server will count a download.
   */
  begin(fileIds: readonly string[]): boolean {
    const fresh = this.token === null || fileIds.some((fileId) => this.started.has(fileId));
    if (fresh) {
      this.token = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));
      this.started.clear();
    }
    for (const fileId of fileIds) this.started.add(fileId);
    return fresh;
  }

  /** The header of the current session (none before the first download). */
  headers(): Record<string, string> {
    return this.token === null ? {} : { [LINK_DOWNLOAD_HEADER]: this.token };
  }
}
