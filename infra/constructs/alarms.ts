import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Stats, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** One alarm: what it watches and when it fires. */
export interface AlarmSpec {
  readonly metric: IMetric;
  readonly threshold: number;
  readonly description: string;
  /** Periods looked at, and how many of them must breach (default 1 of 1). */
  readonly evaluationPeriods?: number;
  readonly datapointsToAlarm?: number;
  readonly comparison?: ComparisonOperator;
}

/**
 * The stage's alarms, all notifying one SNS topic (alarm and recovery). Missing data never
 * alarms: a quiet stage is a healthy one.
 */
export class ServiceAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(
    scope: Construct,
    id: string,
    private readonly topic: ITopic,
    private readonly alarmNamePrefix: string,
  ) {
    super(scope, id);
  }

  /** Adds an alarm named `<prefix>-<name>`. */
  add(name: string, spec: AlarmSpec): Alarm {
    const alarm = new Alarm(this, name, {
      alarmName: `${this.alarmNamePrefix}-${name}`,
      alarmDescription: spec.description,
      metric: spec.metric,
      threshold: spec.threshold,
      evaluationPeriods: spec.evaluationPeriods ?? 1,
      datapointsToAlarm: spec.datapointsToAlarm ?? spec.evaluationPeriods ?? 1,
      comparisonOperator: spec.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
    return alarm;
  }

  /** Any message in a DLQ is a failure someone must look at. */
  addDlqDepth(name: string, dlq: IQueue): Alarm {
    return this.add(`${name}-dlq-depth`, {
      metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: Stats.MAXIMUM }),
      threshold: 1,
      description: `Messages in the ${name} DLQ: failures that exhausted their retries. Inspect, fix, then redrive.`,
    });
  }
}

/**
 * `100 * part / total` over `period`, reported as 0 while `total` is below `minimum` (so three
 * failures out of four requests at night do not page anyone).
 */
export function percentOf(part: IMetric, total: IMetric, minimum: number, period: Duration, label: string): MathExpression {
  return new MathExpression({
    expression: `IF(total >= ${minimum}, 100 * part / total, 0)`,
    usingMetrics: { part, total },
    period,
    label,
  });
}
