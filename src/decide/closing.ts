/** What `on-code-closed` does to a docs pull request once its code pull request closed. Pure. */
/**
 * What becomes of the docs pull request once its code pull request was closed, as data: the
 * docs pull request sink reads it (`read`) and carries out the answer.
 */
export type DocsClosing =
  /** Nothing is read or written: closed without merging, with `on-code-closed: nothing`. */
  | { readonly act: 'none' }
  /** The docs pull request and its backlink must be read before anything is decided. */
  | { readonly act: 'read' }
  /** The backlink records that the code was merged; the docs pull request stays as it is. */
  | { readonly act: 'record-merged' }
  /**
   * It is closed already, or the backlink says it was abandoned: nothing more is done to it, but
   * the backlink records the code's end when it does not yet (`record`).
   */
  | { readonly act: 'leave'; readonly because: 'docs-closed' | 'marked'; readonly record: boolean }
  /** `on-code-closed`: close it and say why (`close`), or only say it may no longer be needed. */
  | { readonly act: 'close' | 'comment' }

/** The docs pull request as read: its state, and what its backlink says of the code's end. */
export interface DocsSeen {
  readonly state: 'open' | 'closed'
  readonly marked?: 'merged' | 'closed'
}

/**
 * What `on-code-closed` does to the docs pull request: a merge is only noted; a code pull
 * request closed without merging closes the docs one or comments on it once, never a docs pull
 * request already closed or already marked, and nothing is done before it was read. Pure.
 */
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
