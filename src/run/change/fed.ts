import type { FedChange } from '../../clients/github/backlink.js'
import { cut, safeLink } from '../../base/sanitize.js'
import { eventPullRequest, onBranchOf, ZERO_SHA, type Event } from '../../given/event.js'

/** The code change a run documents, as the docs pull request's backlink lists it. */
export function fedChange(event: Event, runUrl: string | undefined): FedChange {
  const repo = `${event.owner}/${event.repo}`
  const pr = eventPullRequest(event)
  const run = safeLink(runUrl)?.href
  if (pr) {
    return {
      repo,
      pull: pr.number,
      title: cut(pr.title, 200),
      author: pr.author,
      sha: pr.headSha,
      run
    }
  }
  const head = event.commits.at(-1)
  const sha = event.after && !ZERO_SHA.test(event.after) ? event.after : event.sha
  const via = onBranchOf(event)
  if (via) return { repo, sha, run, via }
  return {
    repo,
    title: head ? cut(head.message.split(/\r?\n/)[0] ?? '', 200) : undefined,
    author: head?.author,
    sha,
    commits: event.commits.length > 0 ? event.commits.length : undefined,
    run
  }
}
