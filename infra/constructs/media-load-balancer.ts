import { Annotations, Duration } from 'aws-cdk-lib';
import { Peer, Port, SecurityGroup, SubnetType, type IVpc } from 'aws-cdk-lib/aws-ec2';
import type { FargateService } from 'aws-cdk-lib/aws-ecs';
import {
  ApplicationLoadBalancer,
  ApplicationProtocol,
  ListenerCertificate,
  SslPolicy,
  type ApplicationListener,
  type ApplicationTargetGroup,
} from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { LoadBalancerTarget } from 'aws-cdk-lib/aws-route53-targets';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ALB_IDLE_TIMEOUT_S, MEDIA_DEREGISTRATION_DELAY_S, MEDIA_HEALTH_PATH, MEDIA_PORT } from '../constants';
import { acknowledge } from '../nag';

/** The public TLS identity of the media service. */
export interface MediaTls {
  readonly domainName: string;
  readonly certificateArn: string;
  readonly hostedZone?: { readonly id: string; readonly name: string };
}

/** Props of the media service's load balancer. */
export interface MediaLoadBalancerProps {
  readonly vpc: IVpc;
  /** Without TLS (dev only) the listener is plain HTTP and Twilio cannot use it. */
  readonly tls?: MediaTls;
  readonly accessLogsBucket: IBucket;
}

/**
 * The internet-facing ALB Twilio calls: voice/status/AMD webhooks over HTTPS and the media
 * stream over WSS, on one TLS listener (TLS 1.2+), with an idle timeout above the longest call
 * and access logs. Browsers use it too: web calls (`/web/calls`) and live listening
 * (`/web/listen`). The listener has no path rules: every path goes to the media tasks, as
 * `/twilio/media` does, and the engine answers the paths it does not serve with 404.
 */
export class MediaLoadBalancer extends Construct {
  readonly alb: ApplicationLoadBalancer;
  readonly listener: ApplicationListener;
  /** The URL Twilio calls back (`PUBLIC_BASE_URL`). */
  readonly publicBaseUrl: string;
  /** The same host for WebSockets (`wss://…`; `ws://…` without TLS): web calls and live listening. */
  readonly publicWebSocketUrl: string;

  constructor(scope: Construct, id: string, props: MediaLoadBalancerProps) {
    super(scope, id);
    const { tls } = props;
    this.alb = new ApplicationLoadBalancer(this, 'Alb', {
      vpc: props.vpc,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      internetFacing: true,
      securityGroup: this.createSecurityGroup(props.vpc, tls ? 443 : 80),
      idleTimeout: Duration.seconds(ALB_IDLE_TIMEOUT_S),
      dropInvalidHeaderFields: true,
    });
    this.alb.logAccessLogs(props.accessLogsBucket, 'media-alb');
    if (tls) {
      this.listener = this.alb.addListener('Https', {
        port: 443,
        protocol: ApplicationProtocol.HTTPS,
        certificates: [ListenerCertificate.fromArn(tls.certificateArn)],
        sslPolicy: SslPolicy.RECOMMENDED_TLS,
        open: false,
      });
      this.publicBaseUrl = `https://${tls.domainName}`;
      this.publicWebSocketUrl = `wss://${tls.domainName}`;
      if (tls.hostedZone) this.addAlias(tls.domainName, tls.hostedZone);
    } else {
      this.listener = this.alb.addListener('Http', { port: 80, protocol: ApplicationProtocol.HTTP, open: false });
      this.publicBaseUrl = `http://${this.alb.loadBalancerDnsName}`;
      this.publicWebSocketUrl = `ws://${this.alb.loadBalancerDnsName}`;
      Annotations.of(this).addWarningV2(
        'voice-agent:media-without-tls',
        'The media service has no TLS listener: Twilio cannot call it (sandbox calls only). Set media.domainName and media.certificateArn.',
      );
    }
  }

  /** Only the listener port is open to the internet; egress only to the tasks (added by CDK). */
  private createSecurityGroup(vpc: IVpc, port: number): SecurityGroup {
    const securityGroup = new SecurityGroup(this, 'SecurityGroup', {
      vpc,
      allowAllOutbound: false,
      description: 'Media ALB: Twilio webhooks and media streams in, the media tasks out.',
    });
    securityGroup.addIngressRule(Peer.anyIpv4(), Port.tcp(port), 'Twilio (no fixed source ranges)');
    acknowledge(
      securityGroup,
      'AwsSolutions-EC23',
      'Twilio publishes no fixed source ranges for webhooks and media streams, and browsers open web calls from anywhere; requests carry X-Twilio-Signature, signed stream tokens or single-use web-call tokens.',
    );
    return securityGroup;
  }

  /**
   * Routes the listener to the media tasks. The deregistration delay lets a task that leaves
   * (deploy, scale-in) finish its open media streams before ECS stops it.
   */
  addService(service: FargateService): ApplicationTargetGroup {
    return this.listener.addTargets('Media', {
      port: MEDIA_PORT,
      protocol: ApplicationProtocol.HTTP,
      targets: [service],
      deregistrationDelay: Duration.seconds(MEDIA_DEREGISTRATION_DELAY_S),
      healthCheck: {
        path: MEDIA_HEALTH_PATH,
        healthyHttpCodes: '200',
        interval: Duration.seconds(15),
        timeout: Duration.seconds(5),
        healthyThresholdCount: 2,
        unhealthyThresholdCount: 3,
      },
    });
  }

  private addAlias(domainName: string, zone: { id: string; name: string }): void {
    new ARecord(this, 'Alias', {
      zone: HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: zone.id, zoneName: zone.name }),
      recordName: domainName,
      target: RecordTarget.fromAlias(new LoadBalancerTarget(this.alb)),
    });
  }
}
