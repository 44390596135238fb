/**
 * The status comment on the code pull request, as a sink: written when the job starts (beside the
 * polling) and updated at the end, through the pull request's companion (an owned comment). Its
 * words are the presentation's (`present/comment.ts`). Its last edit is sent again after a 5xx
 * or no answer while the last writes' budget lasts: an edit is safe to repeat, and a create whose
 * answer was lost is looked for before it is sent again (`OwnedComment`). Its marker names the
 * project, so no comment is created for a project the platform did not accept.
 */
import type { Companion } from '../github/companion.js'
import { commentWritten, statusComment, type CommentOptions } from '../present/comment.js'
import type { RunState } from '../run.js'
import { sendingAgain } from '../github/policy.js'
import type { LastTime, Within } from '../runtime.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/** The status comment, when the run found the code pull request's companion (`comment: auto`). */
export function commentSink(context: SinkContext): Sink | undefined {
  const { companion, settings, trigger } = context
  if (!companion || settings.dryRun) return undefined
  return new CommentSink(
    companion,
    { reuse: settings.reuseJob, runUrl: trigger?.runUrl },
    (stop) => context.time.within('write', stop),
    context.commented === true
  )
}

/** The status comment as a sink; it hands back the address of a comment that exists. */
export class CommentSink implements Sink {
  private readonly companion: Companion
  private readonly options: CommentOptions
  /** Bounds for the write made while the job runs; `stop` ends it early. */
  private readonly withinWrite: (stop: AbortSignal) => Within
  /** The comment exists already: an earlier run, which the platform answered, wrote it. */
  private readonly exists: boolean

  constructor(
    companion: Companion,
    options: CommentOptions,
    withinWrite: (stop: AbortSignal) => Within,
    exists = false
  ) {
    this.companion = companion
    this.options = options
    this.withinWrite = withinWrite
    this.exists = exists
  }

  started(state: RunState): void {
    if (!state.job?.id) return
    this.companion.begin(statusComment(state, this.options), this.withinWrite)
  }

  /** The docs are ready: said now, after the comment's first write, while the preview builds. */
  ready(state: RunState): void {
    if (!state.job?.id) return
    this.companion.begin(statusComment(state, this.options), this.withinWrite, undefined, true)
  }

  async finished(state: RunState, within: Within, time?: LastTime): Promise<Wrote | undefined> {
    if (!state.job?.id) return undefined
    // A project the platform did not accept is named in no new comment; one that exists says how
    // this run ended.
    if (state.accepted === false && !this.exists) return undefined
    const bounds = time ? sendingAgain(time, time.by) : within
    const url = await this.companion.finish(statusComment(state, this.options), bounds)
    if (!url) return undefined
    const did = [commentWritten(this.companion.number, url, this.companion.created)]
    return { written: 'comment', url, did }
  }
}
