import { paths } from '../../lib/navigation/paths';

/** The query parameter of /myfiles (and /new) that names the folder shown (or uploaded into). */
export const FOLDER_PARAM = 'folder';

function withFolder(path: string, nodeId: string | null): string {
  return nodeId === null ? path : `${path}?${FOLDER_PARAM}=${encodeURIComponent(nodeId)}`;
}

/** /myfiles at the top, /myfiles?folder=<nodeId> in a folder. */
export function folderHref(nodeId: string | null): string {
  return withFolder(paths.myFiles, nodeId);
}

/** New Upload into a folder: /new?folder=<nodeId> (/new for the top of My Files). */
export function uploadHref(nodeId: string | null): string {
  return withFolder(paths.newUpload, nodeId);
}
