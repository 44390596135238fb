/**
 * The status comment, rendered from the report: its hidden marker (the project, the job and the
 * last commit it was told about), the headline, the table of facts, and the action's own notes.
 * It holds only the action's own words and values it checked, so nothing in it can mention people
 * or close issues, and its only links are checked URLs (see `links.ts`). Pure.
 */
import { marker } from '../github/companion.js'
import { messageMarkup } from './links.js'
import { reportOf, rowsOf, type Report, type Reported } from './report.js'

/** The status comment's markdown for the run as it stands; `reuse` is `reuse-job`. */
export function statusComment(
  state: Reported,
  options: { readonly reuse: boolean; readonly runUrl?: string }
): string {
  return commentOf(reportOf(state, options.runUrl), options.reuse)
}

export function commentOf(report: Report, reuse: boolean): string {
  return [
    marker(report.record),
    `### ${report.comment}`,
    '',
    `<table>${rowsOf(report, 'comment')}</table>`,
    '',
    ...report.said.map((note) => `${messageMarkup(note, 500)}\n`),
    '<sub>Written by mintlify-agent-action; updated in place.' +
      (reuse
        ? ' New commits on this pull request send follow-up instructions to the same docs job.'
        : '') +
      '</sub>'
  ].join('\n')
}

export function commentWritten(number: number, url: string, created: boolean): string {
  return `${created ? 'Created' : 'Updated'} the status comment on pull request #${number}: ${url}`
}
