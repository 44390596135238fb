/**
 * The status comment on the code pull request, as a sink: written when the job starts (beside the
 * polling) and updated at the end, through the pull request's companion (an owned comment). Its
 * words are the presentation's (`present/comment.ts`).
 */
import type { Companion } from '../github/companion.js'
import { statusComment, type CommentOptions } from '../present/comment.js'
import type { RunState } from '../run.js'
import type { Within } from '../runtime.js'
import type { Sink, SinkContext, Wrote } from './sink.js'

/** The status comment, when the run found the code pull request's companion (`comment: auto`). */
export function commentSink(context: SinkContext): Sink | undefined {
  const { companion, settings, trigger } = context
  if (!companion || settings.dryRun) return undefined
  return new CommentSink(
    companion,
    { reuse: settings.reuseJob, runUrl: trigger?.runUrl },
    context.withinWrite
  )
}

/** The status comment as a sink; it hands back the address of a comment that exists. */
export class CommentSink implements Sink {
  constructor(
    private readonly companion: Companion,
    private readonly options: CommentOptions,
    /** Bounds for the write made while the job runs; `stop` ends it early. */
    private readonly withinWrite: (stop: AbortSignal) => Within
  ) {}

  started(state: RunState): void {
    if (!state.job?.id) return
    this.companion.begin(statusComment(state, this.options), this.withinWrite)
  }

  async finished(state: RunState, within: Within): Promise<Wrote | undefined> {
    if (!state.job?.id) return undefined
    const url = await this.companion.finish(statusComment(state, this.options), within)
    return url ? { written: 'comment', url } : undefined
  }
}
