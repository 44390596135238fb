export type { PlanWords } from '../decide/plan.js'
