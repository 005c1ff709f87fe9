import { useState, type ReactElement } from 'react';
import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { DriveFolder } from '../../lib/drive';
import { dropTarget, type DraggedNode } from './node-drag';
import { folderHref } from './folder-href';

interface FolderBreadcrumbsProps {
  /** From the top down to the folder shown; empty at the top. */
  path: readonly DriveFolder[];
  /** A card dropped on a crumb moves there (null: the top). */
  onDropNode?: (node: DraggedNode, target: string | null) => void;
}

/** My Files › A › B: each crumb opens its folder and takes dropped cards. */
export function FolderBreadcrumbs({ path, onDropNode }: FolderBreadcrumbsProps): ReactElement {
  const crumbs: { nodeId: string | null; name: string }[] = [
    { nodeId: null, name: 'My Files' },
    ...path.map((folder) => ({ nodeId: folder.nodeId, name: folder.name })),
  ];
  return (
    <nav aria-label="Folder path">
      <Breadcrumbs separator="›">
        {crumbs.map((crumb, index) =>
          index === crumbs.length - 1 ? (
            <Text key={crumb.nodeId ?? 'top'} fw={600} aria-current="page" truncate="end" maw={240}>
              {crumb.name}
            </Text>
          ) : (
            <Crumb key={crumb.nodeId ?? 'top'} {...crumb} onDropNode={onDropNode} />
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}

function Crumb({
  nodeId,
  name,
  onDropNode,
}: {
  nodeId: string | null;
  name: string;
  onDropNode: FolderBreadcrumbsProps['onDropNode'];
}): ReactElement {
  const [over, setOver] = useState(false);
  return (
    <Anchor
      component={Link}
      to={folderHref(nodeId)}
      truncate="end"
      maw={200}
      td={over ? 'underline' : undefined}
      fw={over ? 700 : undefined}
      {...(onDropNode === undefined
        ? {}
        : dropTarget((node) => {
            onDropNode(node, nodeId);
          }, setOver))}
    >
      {name}
    </Anchor>
  );
}
