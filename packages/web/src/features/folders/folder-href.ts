import { paths } from '../../lib/navigation/paths';

/** The query parameter of /myfiles that names the folder shown. */
export const FOLDER_PARAM = 'folder';

/** /myfiles at the top, /myfiles?folder=<nodeId> in a folder. */
export function folderHref(nodeId: string | null): string {
  return nodeId === null ? paths.myFiles : `${paths.myFiles}?${FOLDER_PARAM}=${encodeURIComponent(nodeId)}`;
}
