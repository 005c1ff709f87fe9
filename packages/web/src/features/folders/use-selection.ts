import { useCallback, useMemo, useState } from 'react';

/** What a selection holds: files by id, folders by node id. */
export interface Selected {
  readonly files: ReadonlySet<string>;
  readonly folders: ReadonlySet<string>;
}

export interface Selection extends Selected {
  readonly active: boolean;
  readonly count: number;
  start(): void;
  /** Leaves selection mode and clears it. */
  stop(): void;
  toggle(kind: 'file' | 'folder', id: string, on: boolean): void;
  has(kind: 'file' | 'folder', id: string): boolean;
  /** Selects exactly these (Select all). */
  set(files: readonly string[], folders?: readonly string[]): void;
  /** Unselects these (the items a bulk action handled); the rest stay selected. */
  drop(files: readonly string[], folders?: readonly string[]): void;
  clear(): void;
}

const NONE: Selected = { files: new Set(), folders: new Set() };

/** Selection mode of a list screen (My Files, Shared With Me): checkboxes, Select all, a bar. */
export function useSelection(): Selection {
  const [active, setActive] = useState(false);
  const [selected, setSelected] = useState<Selected>(NONE);
  const toggle = useCallback((kind: 'file' | 'folder', id: string, on: boolean) => {
    setSelected((current) => {
      const key = kind === 'file' ? 'files' : 'folders';
      const next = new Set(current[key]);
      if (on) next.add(id);
      else next.delete(id);
      return { ...current, [key]: next };
    });
  }, []);
  return useMemo(
    () => ({
      ...selected,
      active,
      count: selected.files.size + selected.folders.size,
      start: () => {
        setActive(true);
      },
      stop: () => {
        setActive(false);
        setSelected(NONE);
      },
      toggle,
      has: (kind, id) => (kind === 'file' ? selected.files : selected.folders).has(id),
      set: (files, folders = []) => {
        setSelected({ files: new Set(files), folders: new Set(folders) });
      },
      drop: (files, folders = []) => {
        setSelected((current) => ({
          files: new Set([...current.files].filter((id) => !files.includes(id))),
          folders: new Set([...current.folders].filter((id) => !folders.includes(id))),
        }));
      },
      clear: () => {
        setSelected(NONE);
      },
    }),
    [active, selected, toggle],
  );
}
