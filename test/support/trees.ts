// The `$dynamicRef` tree of the 2020-12 core spec's example: a tree whose nodes an outer
// schema can tighten by declaring the same dynamic anchor. Shared by the keyword's tests and the
// text checker's, which must follow the same dynamic scope.

export const tree = {
  $id: 'https://example.com/tree',
  $dynamicAnchor: 'node',
  type: 'object',
  properties: {data: true, children: {type: 'array', items: {$dynamicRef: '#node'}}},
};

/** `tree`, with no property but `data` and `children` at any depth. */
export const strictTree = {$id: 'https://example.com/strict-tree', $dynamicAnchor: 'node', $ref: 'tree', unevaluatedProperties: false};

/** The `schemas` option that makes `tree` available to `strictTree`. */
export const treeSchemas = {'https://example.com/tree': tree};
