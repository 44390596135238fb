/** Whether a change is the agent's own work: the read stops early on it, the decision skips it. */
import type { CommitPull } from '../../clients/github/api.js'
import type { Settings } from '../../given/inputs.js'
import { eventPullRequest, pushOf, type Event } from '../../given/event.js'
import type { Knowable } from './known.js'

/** The agent's hand in the change, as data (the words are the presentation's). */
export type AgentHand =
  | { readonly by: 'pull-author'; readonly number: number; readonly author: string }
  | { readonly by: 'push-commits'; readonly author: string }
  /** A commit of a pull request they opened (its merge), whatever other pull requests it is in. */
  | { readonly by: 'commit-pull'; readonly number: number; readonly author: string }
  /** A pull request that carries this action's backlink: a docs pull request it follows. */
  | { readonly by: 'backlink'; readonly number: number }

function isAgent(settings: Pick<Settings, 'agentAccounts'>, login: string | undefined) {
  return login !== undefined && settings.agentAccounts.includes(login.toLowerCase())
}

/** What the event alone says: a pull request the agent opened, or a push of only its commits. */
export function agentByEvent(
  settings: Pick<Settings, 'agentAccounts'>,
  event: Event
): AgentHand | undefined {
  const pr = eventPullRequest(event)
  if (pr && isAgent(settings, pr.author)) {
    return { by: 'pull-author', number: pr.number, author: pr.author ?? '' }
  }
  const commits = pushOf(event) ? event.commits : []
  if (commits.length > 0 && commits.every((commit) => isAgent(settings, commit.login))) {
    return { by: 'push-commits', author: commits[0]?.login ?? '' }
  }
  return undefined
}

/** What the commit's pull requests say: one of them the agent opened, or one carries a backlink. */
export function agentByPulls(
  settings: Pick<Settings, 'agentAccounts'>,
  pulls: Knowable<readonly CommitPull[]>,
  backlinked?: { readonly number: number; readonly docsPull: boolean }
): AgentHand | undefined {
  const agents = pulls.known ? pulls.value.filter((pull) => isAgent(settings, pull.author)) : []
  const first = agents[0]
  if (first) return { by: 'commit-pull', number: first.number, author: first.author ?? '' }
  if (backlinked?.docsPull) return { by: 'backlink', number: backlinked.number }
  return undefined
}
