/**
 * The status comment on the code pull request, written through its companion when the job starts
 * and at the end. An edit is safe to repeat, so the last one is sent again after a 5xx or no
 * answer; its marker names the project, so none is created for a project the platform refused.
 */
import { commentWritten, statusComment } from '../comment.js'
import type { RunState } from '../../run/state.js'
import { sendingAgain } from '../../clients/github/policy.js'
import type { Sink, SinkContext } from './sink.js'

/** The status comment, when the run found the code pull request's companion (`comment: auto`). */
export function commentSink(context: SinkContext): Sink | undefined {
  const { companion, settings, trigger } = context
  const withinWrite = (stop: AbortSignal) => context.time.within('write', stop)
  if (!companion || settings.dryRun) return undefined
  const options = { reuse: settings.reuseJob, runUrl: trigger?.runUrl }
  const body = (state: RunState) => statusComment(state, options)
  // `ready`: the docs are ready, said after the comment's first write while the preview builds.
  const begin = (after: boolean) => (state: RunState) => {
    if (state.job?.id) companion.begin(body(state), withinWrite, undefined, after)
  }
  return {
    started: begin(false),
    ready: begin(true),
    finished: async (state, within, time) => {
      // A project the platform did not accept is named in no new comment; one that exists (an
      // earlier run, which the platform answered, wrote it) says how this run ended.
      if (!state.job?.id || (state.accepted === false && context.commented !== true)) return
      const url = await companion.finish(body(state), time ? sendingAgain(time, time.by) : within)
      if (!url) return undefined
      const did = [commentWritten(companion.number, url, companion.created)]
      return { written: 'comment', url, did }
    }
  }
}
