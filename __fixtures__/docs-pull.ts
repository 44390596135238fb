import type { PullState } from '../src/clients/github/api.js'
import { ProvenPull } from '../src/clients/github/docs-handle.js'
import type { DocsPull } from '../src/clients/github/docs-pull.js'
import type { PullRef } from '../src/given/ref.js'

/**
 * A docs pull request as the run reads it when GitHub shows mintlify[bot] opened it (its user
 * id on github.com, 109931778): proven the one way the action proves one.
 */
export function agentsPull(
  ref: PullRef,
  state: 'open' | 'merged' | 'closed' = 'open',
  headSha?: string
): DocsPull {
  const pull: PullState = {
    number: ref.number,
    ...(headSha ? { headSha } : {}),
    state: state === 'open' ? 'open' : 'closed',
    merged: state === 'merged',
    author: 'mintlify[bot]',
    authorId: 109931778,
    labels: [],
    reviewers: [],
    teams: []
  }
  const proven = ProvenPull.prove(ref, pull, {
    agents: ['mintlify[bot]'],
    serverUrl: 'https://github.com'
  })
  if ('refused' in proven) throw new Error(proven.refused)
  return { state, ref, proven }
}
