export { checkRetention, createRetention, type Retention, RetentionBusyError, retentionPlan, type PrunePlan } from './retention'
