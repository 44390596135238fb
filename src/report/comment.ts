/**
 * The status comment rendered from the report: its hidden marker, headline, facts and notes. Only
 * the action's own words and checked values, so it cannot mention people or close issues. Pure.
 */
import { marker } from '../clients/github/companion.js'
import { messageMarkup } from './links.js'
import { reportOf, rowsOf, type Report, type Reported } from './report.js'

const REUSE = ' New commits on this pull request send follow-up instructions to the same docs job.'

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
    `<sub>Written by mintlify-agent-action; updated in place.${reuse ? REUSE : ''}</sub>`
  ].join('\n')
}

export function commentWritten(number: number, url: string, created: boolean): string {
  return `${created ? 'Created' : 'Updated'} the status comment on pull request #${number}: ${url}`
}
