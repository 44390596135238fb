/** A comment run's words: why a command was not taken, or where a taken one went. Pure. */
import type { Why } from '../../decide/plan.js'
import type { PlanWords } from '../../present/words.js'
import { forLog } from '../../sanitize.js'

/** The reasons a comment run gives; a taken command's are the job's, after whose command it is. */
export type CommandWhy = Extract<
  Why,
  { code: 'not-a-command' | 'command-refused' | 'command-stopped' | 'command' }
>

export function commandWords(why: CommandWhy, words: (why: Why) => PlanWords): PlanWords {
  switch (why.code) {
    case 'not-a-command':
      return {
        reason: `${why.why} On issue_comment only a /docs command does anything: nothing was done.`
      }
    case 'command-refused':
      return {
        reason:
          `/docs by ${forLog(why.login, 60)} was not taken: only people who can write to the ` +
          'repository (admin, maintain or write, as GitHub says) may give it. ' +
          (why.why ? `${why.why} ` : '') +
          'Nothing was sent to Mintlify.'
      }
    case 'command-stopped':
      return {
        reason: `/docs by ${forLog(why.login, 60)} was not carried out: ${why.why} Nothing was sent to Mintlify.`
      }
    case 'command': {
      const by = `/docs by ${forLog(why.login, 60)} on pull request #${why.number}`
      const to = why.to ? words(why.to) : {}
      const went = to.reason ? ` ${to.reason}` : ''
      return { ...to, reason: `Taking ${by}.${went}` }
    }
  }
}
