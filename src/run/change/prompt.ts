/**
 * The prompt to send: the user's, with the change that started the workflow appended when
 * `context` is auto, or the reason to start no job at all (a deleted branch, `paths` that match
 * nothing). Reading the change is best effort and bounded.
 */
import { matchesPaths, withContext } from './context.js'
import { changeFromPayload, readChange } from './change.js'
import type { Event } from '../../given/event.js'
import type { GitHubApi } from '../../clients/github/api.js'
import type { Settings } from '../../given/inputs.js'
import type { Within, Log } from '../../base/runtime.js'

export interface PreparedPrompt {
  readonly prompt: string
  /** Why no job is started, when none should be. */
  readonly skip?: string
}

/**
 * Prepares the prompt for `event` (undefined outside a workflow run). `within` bounds the whole
 * reading of the change; when it runs out, the agent is told what the payload says.
 */
export async function preparePrompt(
  settings: Settings,
  event: Event | undefined,
  github: GitHubApi | undefined,
  within: Within,
  log: Log,
  /** Read everything on the branch since this commit, the last the docs were told about. */
  since?: string
): Promise<PreparedPrompt> {
  // Attaching sends nothing, so there is no prompt to add the change to.
  if (settings.jobId && !settings.prompt) return { prompt: '' }
  if (!event) {
    if (settings.context === 'auto' || settings.paths.length > 0) {
      log.info('Not in a workflow run (no GITHUB_REPOSITORY), so no change is added to the prompt.')
    }
    return { prompt: settings.prompt }
  }
  if (event.deleted) {
    return {
      prompt: settings.prompt,
      skip: `The push deleted ${event.ref ?? 'a branch or tag'}: there is nothing to document, so no job was started.`
    }
  }
  if (settings.context === 'off' && settings.paths.length === 0) return { prompt: settings.prompt }
  if (event.payloadError) {
    log.warning(
      `The event payload (GITHUB_EVENT_PATH) could not be read: ${event.payloadError}. Nothing ` +
        'is known about the event beyond what the GITHUB_* variables say, so the change is read ' +
        'from the commit the workflow runs on, if at all.'
    )
  }

  const reading = await within((signal) => readChange(event, github, signal, since)).catch(() => ({
    change: changeFromPayload(event),
    warning:
      'Reading the change from GitHub took longer than its time budget, so the agent is told ' +
      'what the event payload says.',
    requests: 0
  }))
  if (reading.warning) log.warning(reading.warning)
  const { change } = reading
  const requests = `${reading.requests} GitHub ${reading.requests === 1 ? 'request' : 'requests'}`
  log.info(
    change.files === undefined
      ? `Read the change from ${change.source}.`
      : `Read the change from ${change.source}: ${change.files.length}` +
          `${change.partial ? '+' : ''} changed ${change.files.length === 1 ? 'file' : 'files'} ` +
          `(${requests}).`
  )

  const { paths } = settings
  if (paths.length > 0 && change.files === undefined) {
    log.info('paths: the changed files are not known, so the job is not skipped.')
  } else if (paths.length > 0 && change.files && !matchesPaths(change.files, paths)) {
    const skip = `None of the ${change.files.length} changed files matches paths (${paths.join(', ')}), so no job was started.`
    if (!change.partial) return { prompt: settings.prompt, skip }
    log.info(
      'paths: none of the files read matches, but not every commit or file of the change ' +
        'could be read, so the job is not skipped.'
    )
  }
  if (settings.context === 'off') return { prompt: settings.prompt }
  const { prompt, added } = withContext(settings.prompt, event, change, settings.contextMaxChars)
  log.info(`Added ${added} characters describing the change to the prompt (context: auto).`)
  return { prompt }
}
