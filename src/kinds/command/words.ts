/** A comment run's reasons, in its own words: why a command was not taken, or where it went. */
import type { KindWhy, Why } from '../../run/decide/plan.js'

const why = (reason: string, text: string, then?: Why): KindWhy => ({
  code: 'kind',
  kind: 'command',
  reason,
  words: { reason: text },
  ...(then && { then })
})

const by = (login: string) => `/docs by ${login}`

/** A comment that is no `/docs` command, or one a bot wrote: nothing is done. */
export const notACommand = (text: string): KindWhy =>
  why(
    'not-a-command',
    `${text} On issue_comment only a /docs command does anything: nothing was done.`
  )

/** A `/docs` command by someone GitHub does not say may write, or could not say. */
export const refused = (login: string, text?: string): KindWhy =>
  why(
    'command-refused',
    `${by(login)} was not taken: only people who can write to the repository (admin, maintain ` +
      `or write, as GitHub says) may give it. ${text ? `${text} ` : ''}Nothing was sent to Mintlify.`
  )

/** A `/docs` command that is not carried out: its comment or pull request changed, or is closed. */
export const stopped = (login: string, text: string): KindWhy =>
  why('command-stopped', `${by(login)} was not carried out: ${text} Nothing was sent to Mintlify.`)

/** A `/docs` command, taken: `to` is why the job it goes to was chosen. */
export const taken = (login: string, number: number, to?: Why): KindWhy =>
  why('command', `Taking ${by(login)} on pull request #${number}.`, to)
