import type { DragEvent } from 'react';

/** What a drag carries: a file (by id) or a folder (by node id) of My Files. */
export type DraggedNode = { kind: 'file'; id: string } | { kind: 'folder'; id: string };

const DRAG_TYPE = 'application/x-coffer-node';

/** Props that make a card draggable as a node. */
export function draggableNode(node: DraggedNode): {
  draggable: true;
  onDragStart: (event: DragEvent) => void;
} {
  return {
    draggable: true,
    onDragStart: (event) => {
      event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(node));
      event.dataTransfer.effectAllowed = 'move';
    },
  };
}

/** Whether a drag carries a node (files from the desktop do not). */
export function carriesNode(event: DragEvent): boolean {
  return event.dataTransfer.types.includes(DRAG_TYPE);
}

/** The node a drop carries, or null. */
export function droppedNode(event: DragEvent): DraggedNode | null {
  try {
    const value: unknown = JSON.parse(event.dataTransfer.getData(DRAG_TYPE));
    if (typeof value !== 'object' || value === null) return null;
    const { kind, id } = value as Record<string, unknown>;
    if ((kind === 'file' || kind === 'folder') && typeof id === 'string') return { kind, id };
  } catch {
    // not ours
  }
  return null;
}

/** Props that make an element a drop target for nodes; `over` styles it while a node hovers. */
export function dropTarget(
  onDrop: (node: DraggedNode) => void,
  setOver: (over: boolean) => void,
): {
  onDragOver: (event: DragEvent) => void;
  onDragLeave: () => void;
  onDrop: (event: DragEvent) => void;
} {
  return {
    onDragOver: (event) => {
      if (!carriesNode(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setOver(true);
    },
    onDragLeave: () => {
      setOver(false);
    },
    onDrop: (event) => {
      setOver(false);
      const node = droppedNode(event);
      if (node === null) return;
      event.preventDefault();
      onDrop(node);
    },
  };
}
