/** What `on-code-closed` does to a docs pull request once its code pull request closed. */
type DocsClosing =
  | { readonly act: 'none' }
  /** Nothing is decided before the docs pull request and its backlink are read. */
  | { readonly act: 'read' }
  | { readonly act: 'record-merged' }
  /** Closed already or marked abandoned: only the backlink may still note the code's end. */
  | { readonly act: 'leave'; readonly because: 'docs-closed' | 'marked'; readonly record: boolean }
  | { readonly act: 'close' | 'comment' }

/** The docs pull request as read: its state, and what its backlink says of the code's end. */
export interface DocsSeen {
  readonly state: 'open' | 'closed'
  readonly marked?: 'merged' | 'closed'
}

/** A merge is only noted; a close acts once, never on a docs pull request closed or marked. */
export function docsClosing(
  how: 'merged' | 'closed',
  action: 'close' | 'comment' | 'nothing',
  docs?: DocsSeen
): DocsClosing {
  if (how === 'closed' && action === 'nothing') return { act: 'none' }
  if (!docs) return { act: 'read' }
  if (how === 'merged') return { act: 'record-merged' }
  const record = docs.marked !== 'closed'
  if (docs.state === 'closed') return { act: 'leave', because: 'docs-closed', record }
  if (!record) return { act: 'leave', because: 'marked', record }
  return action === 'nothing' ? { act: 'none' } : { act: action }
}
