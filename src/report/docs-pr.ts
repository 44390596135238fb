/**
 * Every word on the docs pull request (the backlink comment, the note on why it was closed) and
 * the log's words about it. What came from a payload is escaped and links go only to the
 * workflow's own GitHub, so nothing here can mention people or close issues. Pure.
 */
import { describeGitHubError } from '../clients/github/api.js'
import {
  backlinkMarker,
  closingMarker,
  SHA,
  type Backlink,
  type FedChange
} from '../clients/github/backlink.js'
import { escapeMarkup, forLog, safeLink } from '../base/sanitize.js'
import { pullName, type PullRef } from '../given/ref.js'
import { anchor } from './links.js'

const names = (list: readonly string[]) => list.map((name) => forLog(name, 100)).join(', ')

/** `<a href>` around `text` (already markup) when `url` is a safe link on `serverUrl`. */
function linkOn(serverUrl: string, url: string, text: string): string {
  const link = safeLink(url)
  const origin = safeLink(serverUrl)?.href.replace(/\/$/, '')
  return link && origin && link.href.startsWith(`${origin}/`) ? anchor(link, text) : text
}

/** A code change as one line of markup: its link, title and author, all escaped. */
function changeMarkup(change: FedChange, serverUrl: string): string {
  const base = `${serverUrl}/${change.repo}`
  // Repository names are letters, digits, `-`, `_` and `.`; text inside a link is no reference.
  const name = change.pull
    ? linkOn(serverUrl, `${base}/pull/${change.pull}`, `${change.repo}#${change.pull}`)
    : change.via
      ? `Everything new on ${change.repo} up to this commit (a ${change.via === 'schedule' ? 'scheduled' : 'manual'} run)`
      : change.commits && change.commits > 1
        ? `${change.commits} commits pushed to ${change.repo}`
        : `A push to ${change.repo}`
  const title = change.title ? ` “${escapeMarkup(change.title, 120)}”` : ''
  const author = change.author ? ` by ${escapeMarkup(change.author, 60)}` : ''
  return `${name}${title}${author}`
}

/** Text that opens with a capital, to stand mid-sentence; markup (`<a…`) is left as it is. */
function lowerFirst(text: string): string {
  return /^[A-Z](?:[a-z]|\s)/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text
}

function commitMarkup(change: FedChange, serverUrl: string): string {
  if (!change.sha || !SHA.test(change.sha)) return '—'
  const url = `${serverUrl}/${change.repo}/commit/${change.sha}`
  return linkOn(serverUrl, url, `<code>${change.sha.slice(0, 7)}</code>`)
}

/**
 * The backlink comment's markdown: the hidden record, the code change it documents, every change
 * that fed the job (newest last) and what became of the code pull request.
 */
export function backlinkBody(record: Backlink, serverUrl: string): string {
  const server = serverUrl.replace(/\/+$/, '')
  const latest = record.changes.at(-1)
  const rows = record.changes.map(
    (change) =>
      `<tr><td>${changeMarkup(change, server)}</td><td>${commitMarkup(change, server)}</td>` +
      `<td>${change.run ? linkOn(server, change.run, 'run') : '—'}</td></tr>`
  )
  const code = {
    merged: '✅ The code pull request was merged.',
    closed: '🚫 The code pull request was closed without being merged.'
  }
  return [
    backlinkMarker(record),
    '### 📝 Documentation for a code change',
    '',
    latest
      ? `This pull request documents ${lowerFirst(changeMarkup(latest, server))}.`
      : 'This pull request documents a code change.',
    '',
    ...(rows.length > 0
      ? [
          '<table><tr><th>Change</th><th>Commit</th><th>Workflow run</th></tr>' +
            rows.join('') +
            '</table>',
          ''
        ]
      : []),
    ...(record.code ? [code[record.code], ''] : []),
    '<sub>Written by mintlify-agent-action for the Mintlify agent; updated in place with each ' +
      'change that feeds the docs job.</sub>'
  ].join('\n')
}

/** The note on the docs pull request when its code pull request was closed without merging. */
export function closingComment(
  projectId: string,
  code: PullRef,
  serverUrl: string,
  action: 'close' | 'comment'
): string {
  const server = serverUrl.replace(/\/+$/, '')
  const name = linkOn(
    server,
    `${server}/${code.owner}/${code.repo}/pull/${code.number}`,
    pullName(code)
  )
  const so =
    action === 'close'
      ? 'this pull request was closed too. Reopen it if the documentation change is still wanted.'
      : 'this documentation change may no longer be needed.'
  return [
    closingMarker(projectId),
    `🚫 The code pull request this documents, ${name}, was closed without being merged, so ${so}`,
    '',
    '<sub>Written by mintlify-agent-action (on-code-closed: ' + action + ').</sub>'
  ].join('\n')
}

export function docsFailure(
  what: string,
  failure: unknown,
  permission: string,
  token: 'docs-token' | 'github-token',
  repository?: string
): string {
  return `Could not ${what}: ${describeGitHubError(failure, permission, token, repository)}.`
}

export function noDocsToken(ref: PullRef): string {
  return (
    `Docs pull request ${pullName(ref)} is in another repository than the code, and no ` +
    'docs-token was given to reach it, so docs-reviewers, docs-labels and on-code-closed ' +
    'do nothing there: give docs-token, a token for that repository.'
  )
}

export function reviewersRefused(refused: readonly string[], ref: PullRef): string {
  return (
    `Could not ask ${names(refused)} to review ` +
    `${pullName(ref)}: GitHub asks only collaborators and teams of the docs repository's ` +
    "owner, never the pull request's author. The others were asked; these are not asked again."
  )
}

/** The log's lines for what was written to the docs pull request `ref`, once the run is over. */
export const docsWritten = {
  backlink: (ref: PullRef, url: string, created: boolean) =>
    `${created ? 'Created' : 'Updated'} the backlink comment on docs pull request ` +
    `${pullName(ref)}: ${url}`,
  reviewers: (ref: PullRef, asked: readonly string[]) =>
    `Asked ${names(asked)} to review docs pull request ${pullName(ref)}.`,
  labels: (ref: PullRef, labels: readonly string[]) =>
    `Added the label${labels.length === 1 ? '' : 's'} ` +
    `${names(labels)} to docs pull request ${pullName(ref)}.`,
  closed: (ref: PullRef) => `Closed docs pull request ${pullName(ref)}.`,
  note: (ref: PullRef, url: string) =>
    `Commented on docs pull request ${pullName(ref)} why the code pull request's end concerns it: ${url}`
}
