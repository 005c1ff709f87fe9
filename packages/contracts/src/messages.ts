/**
 * Every user-facing text of the spec (sections 2, 4, 5 and 8), quoted exactly, grouped by
 * screen. Texts the spec does not quote (labels, drop-zone rejections, the invite welcome)
 * are ours and marked as such. Parameterised texts are functions.
 */
import { FEEDBACK_MAX_LENGTH } from './constants.js';

export const navigationMessages = {
  leaveConfirm:
    'You have file operations in progress. Are you sure you want to leave? This may cancel your upload or download.',
  /** Sidebar entries (spec section 2). */
  profile: 'Profile',
  logout: 'Logout',
  newUpload: 'New Upload',
  myFiles: 'My Files',
  sharedWithMe: 'Shared With Me',
  contacts: 'Contacts',
} as const;

export const unlockMessages = {
  setUpTitle: 'Set Up Encryption',
  unlockTitle: 'Unlock Encryption',
  resetTitle: 'Reset Encryption',
  setUpSuccess: 'Encryption set up successfully',
  unlockSuccess: 'Encryption unlocked successfully',
  unlockFailed: 'Encryption Unlock failed. Please try again.',
  resetDone: 'Encryption state reset. Please set up new encryption with a new password.',
  resetFailed: 'Error resetting encryption state. Please try again.',
  logout: 'Logout',
} as const;

export const passwordMessages = {
  required: 'Password is required',
  tooShort: 'Password must be at least 8 characters',
  uppercase: 'Password must contain at least one uppercase letter',
  lowercase: 'Password must contain at least one lowercase letter',
  number: 'Password must contain at least one number',
  special: 'Password must contain at least one special character',
  confirmRequired: 'Please confirm your password',
  mismatch: 'Passwords do not match',
} as const;

export const uploadMessages = {
  dropZone: 'Drop files here or click to upload',
  dropZoneBusy: 'Upload in progress. Please wait...',
  uploadFilesButton: 'Upload Files',
  encryptionNotInitializedBanner:
    'Encryption is not initialized. Please set up your encryption keys before uploading files.',
  encryptionNotInitialized:
    'Encryption not initialized. Please initialize encryption before uploading files.',
  encryptionVersionUnavailable: 'Encryption version not available. Please try refreshing the page.',
  fileAlreadyAdded: 'File already added',
  tooManyFiles: 'You can not upload any more files.',
  /** Ours: the spec names these drop-zone rejections without quoting them. */
  fileTooBig: 'File is too large.',
  invalidFileType: 'File type is not supported.',
  queuedBadge: 'Queued',
  processingBadge: 'Processing',
  preparing: 'Preparing file for upload...',
  encryptingAndUploading: 'Encrypting and uploading file',
  complete: 'Upload complete',
  success: 'File uploaded successfully!',
  cancelled: 'Upload cancelled',
  aborted: 'Upload was aborted',
  networkError: 'Network error during upload',
  cancelFailed: 'Error cancelling upload',
  cancelAllFailed: 'Error cancelling uploads',
  loadFailed: 'Error loading uploads!',
  noneFound: 'No uploads found',
  monthlyLimit:
    'You have reached your monthly upload limit. Please try again next month or upgrade your plan.',
  failed: 'Failed to upload file. Please try again.',
  quotaExceeded: 'Storage quota exceeded. Please free up some space or upgrade your plan.',
  sessionExpired: 'Your session has expired. Please log in again.',
  defaultError: 'Error uploading file!',
} as const;

export const downloadMessages = {
  starting: 'Starting download...',
  preparing: 'Preparing file for download...',
  downloadingAndDecrypting: 'Downloading and decrypting file',
  complete: 'Download complete',
  success: 'File downloaded successfully!',
  cancelled: 'Download cancelled',
  aborted: 'Download was aborted',
  cancelAllFailed: 'Error cancelling downloads',
  notUnlocked: 'Encryption is not unlocked...',
  failed: 'Failed to download file. Please try again.',
  fileGone: 'The file you are trying to download no longer exists.',
  noPermission: 'You do not have permission to download this file.',
  defaultError: 'Error downloading file!',
  /** Snackbar for a failed shared-file download. */
  sharedFailed: 'Download failed',
  unknownError: 'Unknown error',
  /** Ours: the spec says an unencrypted file fails to download without quoting a text. */
  notEncrypted: 'This file is not encrypted and cannot be downloaded.',
  /** Ours: a shared file's encrypted key must be present and a string. */
  missingSharedKey: 'File encryption key not found in metadata',
} as const;

export const myFilesMessages = {
  emptyTitle: 'No files found',
  emptyHint: 'Try adjusting your search or filters.',
  uploadButton: 'Upload',
  loadFailed: 'Error loading files!',
  noneFound: 'No files found',
  deleteSuccess: 'File deleted successfully!',
  deleteFailed: 'Error deleting file!',
} as const;

export const sharedWithMeMessages = {
  emptyTitle: 'No shared files yet',
  viewMyFilesButton: 'View My Files',
  loadFailed: 'Error loading shared files!',
  noneFound: 'No shared files found',
} as const;

export const receivedFileMessages = {
  title: 'Files Received',
  downloadButton: 'Download',
} as const;

export const contactsMessages = {
  emptyTitle: 'No contacts found',
  emptyHint: 'Add a contact to get started',
  addContactButton: 'Add Contact',
  inviteButton: 'Invite',
  invited: 'Invited',
  shareFilesButton: 'Share files',
  limitReached: 'You have reached your contact limit.',
  nameRequired: 'Name is required.',
  invalidEmail: 'Enter a valid email.',
  loadFailed: 'Error loading contacts!',
  addSuccess: 'Contact added successfully!',
  addFailed: 'Error adding contact!',
  alreadyExists: 'A contact with this email already exists',
  /** Ours (issue 15): the spec has no text for adding oneself. */
  isSelf: 'That is your own email address. Add the people you want to exchange files with.',
  updateSuccess: 'Contact updated successfully!',
  updateFailed: 'Error updating contact!',
  deleteSuccess: 'Contact deleted successfully!',
  deleteFailed: 'Error deleting contact!',
  inviteSuccess: 'Invite sent successfully!',
  inviteFailed: 'Error inviting contact!',
} as const;

export const shareMessages = {
  unencryptedFile: 'Cannot share unencrypted file',
  contactKeyRequired: 'Contact public key is required for sharing',
  /** Ours: the spec requires the user's private key without quoting a text. */
  privateKeyRequired: 'Your private key is required for sharing',
  fileKeyMissing: 'File encryption key not found in metadata',
  nothingNew: 'No new files to share',
  unverifiedContact: 'Cannot share with unverified contact',
  encryptionNotInitialized: 'Encryption not initialized. Please try again.',
  notEncrypted: 'This file is not encrypted and cannot be shared securely.',
  failed: 'Failed to share file',
  selectFailed: 'Error selecting contact(s) for sharing!',
  shareFilesFailed: 'Error sharing files!',
  unshareFailed: 'Error unsharing file!',
  unshareSuccess: 'File unshared successfully!',
  shareFailedRetry: 'Failed to share file. Please try again.',
  fileGone: 'The file you are trying to share no longer exists.',
  noPermission: 'You do not have permission to share this file.',
  invalidOperation: 'Cannot share this file. It may have been deleted or your permissions may have changed.',
  defaultError: 'Error sharing file!',
  shareButton: 'Share',
} as const;

export const shareOperationMessages = {
  fileGone: 'The file no longer exists or has been deleted.',
  noPermission: 'You do not have permission to perform this action.',
  limitReached: 'You have reached the maximum number of shares for this file.',
  invalidRecipient: 'One or more recipients are invalid or cannot receive shares.',
  alreadyShared: 'This file is already shared with one or more of the selected contacts.',
  defaultError: 'An error occurred while performing the operation.',
} as const;

export const feedbackMessages = {
  required: 'Please enter your feedback',
  tooLong: `Feedback exceeds maximum length of ${FEEDBACK_MAX_LENGTH} characters`,
  success: 'Thank you for your feedback!',
  failed: 'Error submitting feedback',
  adminEmpty: 'No feedback received yet.',
  blankMessage: 'No feedback provided',
} as const;

export const profileMessages = {
  personalDetails: 'Personal Details',
  limits: 'Limits',
  provideFeedback: 'Provide Feedback',
} as const;

export const inviteMessages = {
  /** Ours: the spec describes the welcome text without quoting it. */
  welcome: 'Welcome! You can now exchange end-to-end encrypted files.',
} as const;

// --- Parameterised texts ---------------------------------------------------------------------------

/** 'Queued (n of total)' */
export const queuedText = (n: number, total: number): string => `Queued (${n} of ${total})`;
/** 'Encrypting chunk i of n...' */
export const encryptingChunkText = (i: number, n: number): string => `Encrypting chunk ${i} of ${n}...`;
/** 'Decrypting chunk i of n...' */
export const decryptingChunkText = (i: number, n: number): string => `Decrypting chunk ${i} of ${n}...`;
/** 'n uploads cancelled' */
export const uploadsCancelledText = (n: number): string => `${n} uploads cancelled`;
/** 'n downloads cancelled' */
export const downloadsCancelledText = (n: number): string => `${n} downloads cancelled`;
/** 'File with ID {id} not found' on the received-file page. */
export const fileNotFoundText = (id: string): string => `File with ID ${id} not found`;
/** A multipart part answer without an ETag. */
export const noEtagText = (partNumber: number): string => `No ETag received for part ${partNumber}`;
/** A failed download from the server. */
export const downloadFailedStatusText = (status: number, statusText: string): string =>
  `Download failed: ${status} ${statusText}`;
/** A failed upload request without a response text. */
export const uploadFailedStatusText = (status: number, statusText: string): string =>
  `Upload failed: ${status} ${statusText}`;
export const API_REQUEST_FAILED_PREFIX = 'API request failed: ';
/** The error raised for a non-ok answer; the error code is parsed back out of it. */
export const apiRequestFailedText = (responseText: string): string =>
  `${API_REQUEST_FAILED_PREFIX}${responseText}`;
/** Danger snackbar of a failed own-file download: 'Download failed: ' + message or 'Unknown error'. */
export const downloadFailedSnackbarText = (message?: string | null): string =>
  `Download failed: ${message !== undefined && message !== null && message !== '' ? message : downloadMessages.unknownError}`;
/** The share confirmation, naming the file and the contact. */
export const sharedSuccessText = (fileName: string, contactName: string): string =>
  `${fileName} shared successfully with ${contactName}`;
/** Success snackbar after revoking. */
export const accessRevokedText = (name: string): string => `Access revoked for ${name}`;
export const accessRevokedFromText = (name: string): string => `Access revoked successfully from ${name}`;
/** Names the contact or the file title. */
export const revokeFailedText = (nameOrTitle: string): string => `Failed to revoke access for ${nameOrTitle}`;
export const unverifiedContactText = (name: string): string => `${shareMessages.unverifiedContact}: ${name}`;
/** Feedback character counter 'n/2000'. */
export const feedbackCounterText = (length: number): string => `${length}/${FEEDBACK_MAX_LENGTH}`;
/** 'Failed to share file', or the error's own message when it has one. */
export const shareFailedSnackbarText = (message?: string | null): string =>
  message !== undefined && message !== null && message !== '' ? message : shareMessages.failed;
