export { checkRetention, createRetention, type Retention, retentionPlan, type PrunePlan } from './retention'
