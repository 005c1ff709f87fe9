/**
 * The links and file-requests API's shapes (issue 30), from `@coffer/contracts`, under the names
 * the web side uses (`OpenedLink` there is the server's answer; here `OpenedLink` is the opened,
 * decrypted link).
 */
export type {
  CreateLinkRequest as CreateLinkBody,
  CreateRequestRequest as CreateRequestBody,
  LinksResponse,
  OpenedLink as OpenedLinkAnswer,
  OwnerLink,
  OwnerRequest,
  PublicLinkInfo,
  PublicRequest as PublicRequestInfo,
  UpdateLinkRequest as UpdateLinkBody,
  UpdateRequestRequest as UpdateRequestBody,
} from '@coffer/contracts';
import type { PublicLinkInfo } from '@coffer/contracts';

/** `{salt, kdf}` of a link with a password (what the page needs to derive the auth key). */
export type LinkPasswordParams = NonNullable<PublicLinkInfo['password']>;
