import type { Multipart } from '@fastify/multipart';
import type { DirectUploadMetadata } from '@coffer/contracts';
import {
  DIRECT_UPLOAD_THRESHOLD,
  DirectUploadFieldsSchema,
  DirectUploadMetadataSchema,
  encryptedSizeFor,
} from '@coffer/contracts';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../http/errors.js';
import { clientBody } from '../../http/request-body.js';
import { assertMultipartForm } from '../../http/streamed-bodies.js';

/**
 * Limits of the direct-upload form: a handful of short text fields and one file no larger than the
 * ciphertext of the largest direct upload. Busboy enforces them while parsing.
 */
export const DIRECT_UPLOAD_LIMITS = {
  fieldNameSize: 100,
  // The largest field is `node` (issue 31): sealed metadata and a node record of 4 KiB each, and a wrap.
  fieldSize: 12 * 1024,
  fields: 10,
  files: 1,
  parts: 11,
  headerPairs: 20,
  fileSize: encryptedSizeFor(DIRECT_UPLOAD_THRESHOLD),
} as const;

export const FILE_FIELD = 'file';

function firstError(schema: TSchema, value: unknown): string {
  const [error] = Value.Errors(schema, value);
  if (error === undefined) return 'Invalid upload form';
  const where = error.instancePath === '' ? 'form' : error.instancePath.slice(1);
  return `Invalid upload form: ${where} ${error.message}`;
}

/** A form field that carries JSON, parsed. */
function jsonField(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError(`Invalid upload form: ${name} must be JSON`);
  }
}

/** Checks the text fields and turns them into the upload's metadata. */
export function parseDirectUploadFields(fields: Record<string, string>): DirectUploadMetadata {
  if (!Value.Check(DirectUploadFieldsSchema, fields))
    throw new ValidationError(firstError(DirectUploadFieldsSchema, fields));
  const size = Number(fields.size);
  if (size > DIRECT_UPLOAD_THRESHOLD) {
    throw new ValidationError(`Files above ${DIRECT_UPLOAD_THRESHOLD} bytes must use the multipart upload`);
  }
  const encryptionInfo = jsonField(fields.encryptionInfo, 'encryptionInfo');
  const node = fields.node === undefined ? undefined : jsonField(fields.node, 'node');
  const sealedMetadata =
    fields.sealedMetadata === undefined ? undefined : jsonField(fields.sealedMetadata, 'sealedMetadata');
  const metadata = {
    name: fields.name,
    contentType: fields.contentType,
    size,
    isEncrypted: true,
    encryptionInfo,
    ...(fields.manifest === undefined ? {} : { manifest: fields.manifest }),
    ...(node === undefined ? {} : { node }),
    ...(sealedMetadata === undefined ? {} : { sealedMetadata }),
  };
  if (!Value.Check(DirectUploadMetadataSchema, metadata)) {
    throw new ValidationError(firstError(DirectUploadMetadataSchema, metadata));
  }
  return metadata;
}

export type StoreDirectUpload<T> = (
  metadata: DirectUploadMetadata,
  file: AsyncIterable<Uint8Array>,
  afterFile: () => Promise<void>,
) => Promise<T>;

/**
 * Reads a direct-upload form: the text fields first, then the `file` part, which is handed to `store`
 * as a stream while it arrives, so the fields must come before it (the server cannot hold the file
 * while waiting for them). Nothing may follow the file; `afterFile` checks that.
 */
export async function receiveDirectUpload<T>(
  parts: AsyncGenerator<Multipart, void, undefined>,
  store: StoreDirectUpload<T>,
): Promise<T> {
  const fields: Record<string, string> = {};
  for (;;) {
    const next = await parts.next();
    if (next.done === true) throw new ValidationError('The upload form has no file part');
    const part = next.value;
    if (part.type === 'field') {
      if (Object.hasOwn(fields, part.fieldname)) {
        throw new ValidationError(`Invalid upload form: field ${part.fieldname} is repeated`);
      }
      if (part.valueTruncated)
        throw new ValidationError(`Invalid upload form: field ${part.fieldname} is too long`);
      // A field sent with a JSON content type arrives parsed; the schema checks its text.
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      continue;
    }
    const file = part.file;
    try {
      if (part.fieldname !== FILE_FIELD) {
        throw new ValidationError(`Invalid upload form: the file part must be named "${FILE_FIELD}"`);
      }
      if (Object.keys(fields).length === 0) {
        throw new ValidationError('Invalid upload form: the text fields must come before the file part');
      }
      return await store(parseDirectUploadFields(fields), clientBody(file), async () => {
        if (file.truncated) throw new ValidationError('The file part is larger than a direct upload may be');
        const after = await parts.next();
        if (after.done !== true) {
          if (after.value.type === 'file') after.value.file.resume();
          throw new ValidationError('Invalid upload form: nothing may follow the file part');
        }
      });
    } catch (error) {
      // Unread file data would stall the request; discard it so the answer can go out.
      file.resume();
      throw error;
    }
  }
}

/** A direct upload's request (multipart/form-data, else 415), its form read by {@link receiveDirectUpload}. */
export function receiveDirectRequest<T>(request: FastifyRequest, store: StoreDirectUpload<T>): Promise<T> {
  assertMultipartForm(request);
  return receiveDirectUpload(
    clientBody(() => request.parts()),
    store,
  );
}
