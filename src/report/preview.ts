/**
 * The preview deployment's words on every surface: its fact, log lines, notice, outputs and what
 * the docs check adds. Its address is shown only in the strict shape the client kept; the
 * platform's summary is cut and escaped. Pure.
 */
import { formatDuration } from '../base/duration.js'
import type { PreviewCause } from '../clients/mintlify/preview.js'
import type { Preview } from '../run/state.js'
import { escapeMarkup, forLog, safeLink } from '../base/sanitize.js'
import { anchor } from './links.js'
import type { CheckState } from './ended.js'

export const MAX_SUMMARY_QUOTE = 200

export const TURN_OFF = 'Set `preview: off` on this step to stop asking for one.'

/** The `preview-status` output: the last state seen; empty when no preview was asked about. */
export function previewStatus(preview: Preview | undefined): string {
  if (!preview || preview.state === 'would-request') return ''
  if (preview.cause?.kind === 'plan') return 'unavailable'
  return preview.state
}

/** The `preview-url` output: the address in the strict shape, or empty. */
export function previewUrl(preview: Preview | undefined): string {
  return preview?.url ?? ''
}

/** Why no preview was requested, or why its fate is unknown, in one sentence or two. */
export function causeWords(cause: PreviewCause, branch?: string): string {
  const of = branch ? ` of ${branch}` : ''
  const server = 'server' in cause && cause.server ? `: ${cause.server}` : ''
  switch (cause.kind) {
    case 'plan':
      return (
        `Mintlify refused the preview${of} (HTTP 403${server}): ` +
        'preview deployments are not available on this plan. The agent job was started with ' +
        `the same key, so it is the plan, not the key. ${TURN_OFF}`
      )
    case 'rate-limit':
      return (
        `The preview${of} was not requested: Mintlify's rate limit (5 preview requests a ` +
        'minute per organization) ' +
        (cause.waitMs === undefined
          ? 'kept refusing it'
          : `asked to wait ${formatDuration(cause.waitMs)}`) +
        `, and ${formatDuration(cause.leftMs)} was left before this step's timeout.`
      )
    case 'refused':
      return `Mintlify refused the preview request${of} (HTTP ${cause.status}${server}); no preview was deployed.`
    case 'unanswered':
      return (
        `The preview request${of} got no usable answer (${cause.message}), so a preview may or ` +
        'may not be deploying. It was not asked for again, since a second request would deploy ' +
        'it twice, and no status id came back to read; see the Mintlify dashboard.'
      )
    case 'unsent':
      return `The preview${of} was not requested: ${cause.message}.`
    case 'branch':
      return cause.job && cause.pull
        ? `The job names branch ${cause.job} and the docs pull request's head is ${cause.pull}, ` +
            'so no preview was requested: the action does not guess which one holds the docs.'
        : 'Neither the job nor the docs pull request names a branch in a form the action ' +
            'accepts, so no preview was requested.'
  }
}

/** The short reason shown in the "Preview" line. */
function shortCause(cause: PreviewCause | undefined): string {
  if (cause?.kind === 'refused') return `not requested: Mintlify refused it (HTTP ${cause.status})`
  return cause ? SHORT_CAUSES[cause.kind] : 'not requested'
}

const SHORT_CAUSES: Record<Exclude<PreviewCause['kind'], 'refused'>, string> = {
  plan: 'not available on this plan (<code>preview: off</code> stops asking)',
  'rate-limit': "not requested: Mintlify's rate limit asked to wait past this step's timeout",
  unanswered: 'unknown: the request got no usable answer; see the Mintlify dashboard',
  unsent: "not requested: the request could not be sent in the step's time",
  branch: 'not requested: no single branch for the docs pull request'
}

function linkMarkup(preview: Preview): string | undefined {
  const link = safeLink(preview.url)
  return link ? anchor(link, escapeMarkup(link.href, 200)) : undefined
}

/** The "Preview" fact (markup): the link and its state, or why there is none. */
export function previewMarkup(preview: Preview | undefined): string | undefined {
  if (!preview) return undefined
  const link = linkMarkup(preview)
  const withLink = (state: string) => (link ? `${link} — ${state}` : state)
  switch (preview.state) {
    case 'would-request':
      return 'would be requested once the docs pull request is open (dry run)'
    case 'building':
      return withLink('⏳ building')
    case 'ready':
      return withLink('✅ ready')
    case 'failed':
      return withLink(
        '❌ failed' +
          (preview.summary ? `: ${escapeMarkup(preview.summary, MAX_SUMMARY_QUOTE)}` : '')
      )
    case 'uncertain':
      return withLink(shortCause(preview.cause))
    case 'not-requested':
      return shortCause(preview.cause)
    case 'unchanged':
      return `${UNCHANGED}${commitOf(preview)}: not requested again`
  }
}

export const UNCHANGED = 'unchanged since the last preview'

/** ` (docs commit abc1234)`, for a preview whose commit is known; the short sha is hex only. */
function commitOf(preview: Preview): string {
  return preview.sha && /^[0-9a-f]{40}$/.test(preview.sha)
    ? ` (docs commit ${preview.sha.slice(0, 7)})`
    : ''
}

/** The log's words for the preview as it stands; a notice when the plan has no previews. */
export function previewWords(preview: Preview | undefined): {
  readonly info?: string
  readonly warning?: string
  readonly notice?: string
} {
  if (!preview) return {}
  const of = preview.branch ? ` of ${preview.branch}` : ''
  const at = preview.url ? ` at ${preview.url}` : ''
  const refused = preview.urlRefused
    ? ' The platform gave its address in a form that is not a plain https link to a docs site ' +
      '(a host and a path, nothing more), so it is not shown or handed on.'
    : ''
  switch (preview.state) {
    case 'would-request':
      return {
        info:
          'Dry run: once the job completes with an open docs pull request, a preview ' +
          'deployment of its branch would be requested (POST /v1/project/preview/<project-id>) ' +
          'and followed to its end.'
      }
    case 'building':
      return {
        info: `The preview${of} is still building${at}; this run stopped following it.${refused}`
      }
    case 'ready':
      return { info: `The preview${of} is ready${at}.${refused}` }
    case 'unchanged':
      return {
        info:
          `The docs pull request is ${UNCHANGED}${of}${commitOf(preview)}, so no new ` +
          'preview was requested; the earlier one still shows it.'
      }
    case 'failed':
      return {
        warning:
          `The preview${of} failed to build${at}` +
          (preview.summary ? `: ${forLog(preview.summary, MAX_SUMMARY_QUOTE)}` : '.') +
          ` The docs pull request is not affected.${refused}`
      }
    case 'uncertain':
    case 'not-requested': {
      const words = preview.cause ? causeWords(preview.cause, preview.branch) : ''
      if (preview.cause?.kind === 'plan') return { notice: words }
      if (preview.cause?.kind === 'branch' || preview.cause?.kind === 'rate-limit') {
        return { info: words + refused }
      }
      return { warning: words + refused }
    }
  }
}

/** The check's words with a ready preview; a preview never changes the check's state. */
export function withPreview(check: CheckState, preview: Preview | undefined): CheckState {
  const ready = check.description === 'Docs pull request ready' && preview?.state === 'ready'
  if (check.state !== 'success' || !ready) return check
  return { ...check, description: 'Docs pull request ready, preview ready' }
}
