/** The shape of a plan's words, which each kind of run's words share. */
export interface PlanWords {
  /** Why, for the log; for a skip, the outcome's reason. */
  readonly reason?: string
  /** A line for the status comment: why the recorded job was not sent the change. */
  readonly note?: string
  /** An annotation the run owes its users. */
  readonly warning?: string
  /** For a skip: what the docs check says. */
  readonly check?: string
}
