import { CfnOutput, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { FlowLogDestination, FlowLogTrafficType, GatewayVpcEndpointAwsService, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import type { ApplicationTargetGroup } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { DkimIdentity, EasyDkimSigningKeyLength, EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';
import { emailFromAddress, type StageConfig } from '../config';
import { MediaLoadBalancer, type MediaTls } from '../constructs/media-load-balancer';
import { MediaService } from '../constructs/media-service';
import { recordingsBucketName, stageNames } from '../stage-names';
import type { DataStack } from './data-stack';

/** Props of the media stack. */
export interface MediaStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
}

/**
 * The call engine: a VPC (private subnets behind NAT, flow logs, free S3/DynamoDB gateway
 * endpoints), the media service on Fargate and the TLS load balancer Twilio calls back.
 */
export class MediaStack extends Stack {
  readonly vpc: Vpc;
  readonly loadBalancer: MediaLoadBalancer;
  readonly media: MediaService;
  readonly targetGroup: ApplicationTargetGroup;
  /** The SES domain identity the assistants email from (stages with an `emailDomain`). */
  readonly emailIdentity?: EmailIdentity;

  constructor(scope: Construct, id: string, props: MediaStackProps) {
    super(scope, id, props);
    const { config, data } = props;
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.vpc = this.createVpc(config, removalPolicy);
    this.loadBalancer = new MediaLoadBalancer(this, 'LoadBalancer', {
      vpc: this.vpc,
      tls: mediaTls(config),
      accessLogsBucket: data.accessLogsBucket,
    });
    this.media = new MediaService(this, 'Media', {
      vpc: this.vpc,
      stage: config.stage,
      capacity: config.media,
      logRetention: config.logRetention,
      removalPolicy,
    })
      .bindTable(stageNames(config.stage).tableName, 'read-write')
      .bindQueue('OUTBOUND_QUEUE_URL', data.outbound.queue, 'consume')
      .bindEventBus(data.bus)
      .bindRecordings(recordingsBucketName(this, config.stage), data.recordingsKey, 'write')
      // Opens custom LLM keys to call the business's model; never seals anything.
      .bindSecretsKey(data.secretsKey, ['decrypt'])
      .addSecret('TWILIO_ACCOUNT_SID', data.secrets.twilio, 'account_sid')
      .addSecret('TWILIO_AUTH_TOKEN', data.secrets.twilio, 'auth_token')
      .addSecret('DEEPGRAM_API_KEY', data.secrets.deepgram, 'api_key')
      .addSecret('OPENAI_API_KEY', data.secrets.openai, 'api_key')
      .addSecret('STREAM_TOKEN_SECRET', data.secrets.streamToken)
      .allowMetrics()
      .scaleOnOutboundQueue(data.outbound.queue);
    this.media.container.addEnvironment('PUBLIC_BASE_URL', this.loadBalancer.publicBaseUrl);
    if (config.emailDomain) this.emailIdentity = this.bindEmail(config.emailDomain);
    this.targetGroup = this.loadBalancer.addService(this.media.service);
    this.addOutputs();
  }

  /**
   * The SES domain identity (Easy DKIM, 2048-bit) the media tasks send from, and its three DKIM
   * CNAME records as outputs: ops add them to the domain's DNS (docs/deploy.md "Email").
   */
  private bindEmail(emailDomain: string): EmailIdentity {
    const identity = new EmailIdentity(this, 'EmailIdentity', {
      identity: Identity.domain(emailDomain),
      dkimSigning: true,
      dkimIdentity: DkimIdentity.easyDkim(EasyDkimSigningKeyLength.RSA_2048_BIT),
    });
    this.media.bindEmailIdentity(identity, emailFromAddress(emailDomain));
    for (const n of [1, 2, 3] as const) {
      new CfnOutput(this, `EmailDkimRecord${n}`, {
        value: Fn.join(' CNAME ', [identity[`dkimDnsTokenName${n}`], identity[`dkimDnsTokenValue${n}`]]),
        description: `DKIM record ${n} of ${emailDomain}: add it to the domain's DNS so SES can verify the identity.`,
      });
    }
    return identity;
  }

  private addOutputs(): void {
    new CfnOutput(this, 'MediaUrl', {
      value: this.loadBalancer.publicBaseUrl,
      description: 'Public base URL of the media service (Twilio webhooks and media streams).',
    });
    new CfnOutput(this, 'MediaLoadBalancerDns', {
      value: this.loadBalancer.alb.loadBalancerDnsName,
      description: 'Point the media domain (CNAME or alias) here when no hosted zone is configured.',
    });
  }

  private createVpc(config: StageConfig, removalPolicy: RemovalPolicy): Vpc {
    const flowLogs = new LogGroup(this, 'FlowLogs', { retention: config.logRetention, removalPolicy });
    return new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: config.natGateways,
      subnetConfiguration: [
        { name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'private', subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      ],
      gatewayEndpoints: {
        S3: { service: GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: GatewayVpcEndpointAwsService.DYNAMODB },
      },
      flowLogs: {
        all: { destination: FlowLogDestination.toCloudWatchLogs(flowLogs), trafficType: FlowLogTrafficType.ALL },
      },
      restrictDefaultSecurityGroup: true,
    });
  }
}

/** The TLS identity from the stage config, when there is one. */
function mediaTls(config: StageConfig): MediaTls | undefined {
  const { domainName, certificateArn, hostedZone } = config.media;
  if (!domainName || !certificateArn) return undefined;
  return { domainName, certificateArn, ...(hostedZone ? { hostedZone } : {}) };
}
