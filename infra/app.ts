import { App } from 'aws-cdk-lib';
import { buildService } from './build-app';
import { loadStageConfig, type StageOverrides } from './config';

/**
 * CDK entry (`cdk synth`, `cdk deploy`): one stage per run, chosen with `-c stage=NAME` (default
 * `dev`); `-c domainName=... -c certificateArn=...` (and `hostedZoneId`, `hostedZoneName`,
 * `alarmEmail`, `emailDomain`) override the stage's values from infra/config.ts.
 */
const app = new App();
const context = (key: keyof StageOverrides | 'stage'): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};
const overrides: StageOverrides = {
  domainName: context('domainName'),
  certificateArn: context('certificateArn'),
  hostedZoneId: context('hostedZoneId'),
  hostedZoneName: context('hostedZoneName'),
  alarmEmail: context('alarmEmail'),
  emailDomain: context('emailDomain'),
};
buildService(app, loadStageConfig(context('stage') ?? 'dev', overrides));
app.synth();
