import { AssetHashType, DockerImage, Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Policy } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_ASSETS_DIR, ConsoleBundling } from '../console-bundle';
import { acknowledge, acknowledgeWildcardAction, acknowledgeWildcardResourcesOf } from '../nag';
import { REPO_ROOT } from '../paths';
import { consoleContentSecurityPolicy, type ConsoleOrigins } from './console-headers';

/** Props of the console's hosting. */
export interface ConsoleSiteProps extends ConsoleOrigins {
  /** Base URL of the REST API (`https://…/api/v1`), written to `config.json` for the console to read at start. */
  readonly apiUrl: string;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/** Hashed bundles never change under their name: a year, immutable. */
export const ASSETS_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** index.html, config.json and the browser client keep their names across deploys: always revalidated. */
export const PAGES_CACHE_CONTROL = 'no-cache';
/** HSTS max-age: two years, the value browsers' preload lists ask for. */
const HSTS_MAX_AGE = Duration.days(730);

/**
 * The web console: a private S3 bucket read only by CloudFront through origin access control,
 * HTTPS only, a strict Content-Security-Policy and the usual security headers, single-page-app
 * routing (any path the bucket lacks answers index.html), hashed `/assets/*` cached for a year and
 * everything else revalidated, and `config.json` (`{"apiBaseUrl"}`) written at deploy time.
 */
export class ConsoleSite extends Construct {
  readonly bucket: Bucket;
  /** Receives the distribution's access logs and the bucket's server access logs. */
  readonly logsBucket: Bucket;
  readonly distribution: Distribution;
  /** The console's origin (`https://dxxxx.cloudfront.net`): CONSOLE_ORIGIN of the API and the media service. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    this.logsBucket = new Bucket(this, 'Logs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // CloudFront's standard logs are delivered through the bucket ACL, so ACLs stay enabled here.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(365) }],
      removalPolicy: props.removalPolicy,
    });
    // No versioning: every file is rebuilt from git on deploy, so an old version is never needed.
    this.bucket = new Bucket(this, 'Site', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'console-bucket/',
      removalPolicy: props.removalPolicy,
    });
    this.distribution = this.createDistribution(props);
    this.origin = `https://${this.distribution.distributionDomainName}`;
    this.deploy(props);
    this.acknowledgeFindings();
  }

  private createDistribution(props: ConsoleSiteProps): Distribution {
    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const page: BehaviorOptions = {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy: this.pageHeaders(props),
    };
    return new Distribution(this, 'Distribution', {
      comment: 'Voice agent web console',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_ALL,
      defaultBehavior: page,
      additionalBehaviors: {
        [`${CONSOLE_ASSETS_DIR}/*`]: { ...page, cachePolicy: CachePolicy.CACHING_OPTIMIZED },
        // The browser client, for other sites' pages too: a module or worklet loaded across origins needs CORS.
        'web-call*': { ...page, responseHeadersPolicy: this.embedHeaders() },
      },
      // Single-page-app routes (/calls/12) are not objects: S3 answers 403 through OAC (no ListBucket), 404 otherwise.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      enableLogging: true,
      logBucket: this.logsBucket,
      logFilePrefix: 'console-cdn/',
    });
  }

  /** The console's pages: the CSP, HSTS, nosniff, no framing, no referrer, the microphone for this origin only. */
  private pageHeaders(props: ConsoleSiteProps): ResponseHeadersPolicy {
    return new ResponseHeadersPolicy(this, 'PageHeaders', {
      comment: 'Voice agent console: CSP and security headers',
      securityHeadersBehavior: {
        ...baseSecurityHeaders(),
        contentSecurityPolicy: { contentSecurityPolicy: consoleContentSecurityPolicy(props), override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Permissions-Policy', value: 'camera=(), geolocation=(), microphone=(self)', override: true }],
      },
    });
  }

  /** The browser client's files: readable from any origin (GET only, no credentials). */
  private embedHeaders(): ResponseHeadersPolicy {
    return new ResponseHeadersPolicy(this, 'EmbedHeaders', {
      comment: 'Voice agent browser client: CORS for any page',
      securityHeadersBehavior: baseSecurityHeaders(),
      corsBehavior: {
        accessControlAllowOrigins: ['*'],
        accessControlAllowMethods: ['GET', 'HEAD'],
        accessControlAllowHeaders: ['*'],
        accessControlAllowCredentials: false,
        originOverride: true,
      },
    });
  }

  /**
   * Two uploads of the built site: the hashed bundles first (cached for a year), then the pages
   * that name them and config.json (revalidated), so a new index.html never names a bundle not yet
   * there. Neither prunes: a tab opened before a deploy still finds the bundles it loads later.
   */
  private deploy(props: ConsoleSiteProps): void {
    const site = builtConsole();
    const logGroup = new LogGroup(this, 'DeployLogs', { retention: props.logRetention, removalPolicy: props.removalPolicy });
    const common = { destinationBucket: this.bucket, prune: false, logGroup };
    const assets = new BucketDeployment(this, 'DeployAssets', {
      ...common,
      sources: [site],
      exclude: ['*'],
      include: [`${CONSOLE_ASSETS_DIR}/*`],
      cacheControl: [CacheControl.fromString(ASSETS_CACHE_CONTROL)],
    });
    const pages = new BucketDeployment(this, 'DeployPages', {
      ...common,
      sources: [site, Source.jsonData('config.json', { apiBaseUrl: props.apiUrl })],
      exclude: [`${CONSOLE_ASSETS_DIR}/*`],
      cacheControl: [CacheControl.fromString(PAGES_CACHE_CONTROL)],
    });
    pages.node.addDependency(assets);
  }

  private acknowledgeFindings(): void {
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR1',
      'The console serves businesses in any country; there is no country to block, and the API checks every request by key.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR2',
      'Static files only: no request reaches code through this distribution (the API has its own stage throttle and per-key limits).',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR4',
      'No custom domain: the default *.cloudfront.net certificate cannot set a minimum TLS version (docs/deploy.md "The console").',
    );
    // The S3 deployment's provider: one function per stack, outside this construct.
    const provider = Stack.of(this).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    const policy = provider?.node.tryFindChild('ServiceRole')?.node.tryFindChild('DefaultPolicy') as Policy | undefined;
    if (!provider || !policy) throw new Error('the S3 deployment provider is not where CDK puts it; check its acknowledgments');
    acknowledge(
      provider,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "CDK's S3 deployment function: AWSLambdaBasicExecutionRole, for its own logs only.",
    );
    const copying = "CDK's S3 deployment function copies the built site from the asset bucket into the console bucket, and nothing else.";
    for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
      acknowledgeWildcardAction(provider, action, copying);
    }
    acknowledgeWildcardResourcesOf(provider, policy, copying);
    acknowledge(provider, 'AwsSolutions-L1', "CDK's S3 deployment function pins its own Python runtime; a CDK upgrade moves it on.");
  }
}

/** HSTS and nosniff, on every response of the distribution. */
function baseSecurityHeaders(): ResponseSecurityHeadersBehavior {
  return {
    strictTransportSecurity: { accessControlMaxAge: HSTS_MAX_AGE, includeSubdomains: true, override: true },
    contentTypeOptions: { override: true },
  };
}

/** The console and browser client, built while CDK bundles assets (infra/console-bundle.ts). */
function builtConsole(): ISource {
  return Source.asset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by the type; never used, because the local build either bundles or throws.
      image: DockerImage.fromRegistry('node:24'),
      local: new ConsoleBundling(REPO_ROOT),
    },
  });
}
