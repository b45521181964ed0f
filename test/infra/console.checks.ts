import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ConsoleBundling, ConsoleNotBuiltError, WEB_CLIENT_FILES } from '../../infra/console-bundle';
import { ASSETS_CACHE_CONTROL, PAGES_CACHE_CONTROL } from '../../infra/constructs/console-site';
import { logicalId, render, synthesizeTlsStage, type SynthesizedService } from './synth';

let service: SynthesizedService;
let api: Template;

const resourcesOf = (template: Template, type: string) => Object.values(template.findResources(type));
const distributionConfig = () => resourcesOf(api, 'AWS::CloudFront::Distribution')[0]!.Properties.DistributionConfig;
const headersPolicy = (prefix: string) =>
  api.toJSON().Resources[logicalId(api, 'AWS::CloudFront::ResponseHeadersPolicy', prefix)].Properties.ResponseHeadersPolicyConfig;
const apiEnvironment = () => {
  const fn = resourcesOf(api, 'AWS::Lambda::Function').find((f) => String(f.Properties.Description).startsWith('Public REST API'));
  return fn!.Properties.Environment.Variables as Record<string, unknown>;
};

beforeAll(() => {
  service = synthesizeTlsStage();
  api = service.templates.api;
});

describe('console bucket', () => {
  it('is private: every public access blocked, no ACLs, S3-managed encryption, TLS 1.2+ only, no website hosting', () => {
    const site = logicalId(api, 'AWS::S3::Bucket', 'ConsoleSite');
    const bucket = api.toJSON().Resources[site].Properties;
    expect(bucket).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: { Ref: expect.stringMatching(/^ConsoleLogs/) } },
    });
    expect(bucket).not.toHaveProperty('WebsiteConfiguration');
    const policy = resourcesOf(api, 'AWS::S3::BucketPolicy').find((p) => p.Properties.Bucket.Ref === site)!;
    const denies = (policy.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>).filter((s) => s.Effect === 'Deny');
    expect(denies.map((s) => s.Condition)).toEqual([
      { Bool: { 'aws:SecureTransport': 'false' } },
      { NumericLessThan: { 's3:TlsVersion': 1.2 } },
    ]);
  });

  it('is read by CloudFront alone, as this distribution (origin access control), GetObject only', () => {
    // Arrange
    const site = logicalId(api, 'AWS::S3::Bucket', 'ConsoleSite');
    const distribution = logicalId(api, 'AWS::CloudFront::Distribution', 'ConsoleDistribution');
    const policy = resourcesOf(api, 'AWS::S3::BucketPolicy').find((p) => p.Properties.Bucket.Ref === site)!;
    const allows = (policy.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>).filter((s) => s.Effect === 'Allow');

    // Assert
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' });
    expect(render((allows[0]!.Condition as Record<string, Record<string, unknown>>).StringEquals!['AWS:SourceArn'])).toBe(
      `arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution/<${distribution}>`,
    );
  });

  it('is reached through an origin access control (SigV4, always signed), and no stack has an origin access identity', () => {
    api.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    const [origin] = distributionConfig().Origins;
    expect(origin).toMatchObject({
      OriginAccessControlId: { 'Fn::GetAtt': [expect.stringMatching(/OriginAccessControl/), 'Id'] },
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
    for (const template of Object.values(service.templates))
      expect(template.findResources('AWS::CloudFront::CloudFrontOriginAccessIdentity')).toEqual({});
  });
});

describe('console distribution', () => {
  it('redirects every behaviour to HTTPS and serves index.html at / and for any path the bucket lacks, with 200', () => {
    const config = distributionConfig();
    const behaviours = [config.DefaultCacheBehavior, ...config.CacheBehaviors];
    expect(behaviours.map((b: Record<string, unknown>) => b.ViewerProtocolPolicy)).toEqual(behaviours.map(() => 'redirect-to-https'));
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toEqual([
      { ErrorCode: 403, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
      { ErrorCode: 404, ResponseCode: 200, ResponsePagePath: '/index.html', ErrorCachingMinTTL: 0 },
    ]);
    expect(config.Logging).toMatchObject({ Bucket: { 'Fn::GetAtt': [expect.stringMatching(/^ConsoleLogs/), 'RegionalDomainName'] } });
  });

  it('caches the hashed /assets/* for a year and revalidates the rest (index.html, config.json, the browser client)', () => {
    // Arrange: CloudFront's managed policies.
    const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
    const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
    const config = distributionConfig();
    const byPath = Object.fromEntries(
      (config.CacheBehaviors as Array<Record<string, unknown>>).map((b) => [b.PathPattern, b.CachePolicyId]),
    );

    // Assert: at the edge
    expect(config.DefaultCacheBehavior.CachePolicyId).toBe(CACHING_DISABLED);
    expect(byPath).toEqual({ 'assets/*': CACHING_OPTIMIZED, 'web-call*': CACHING_DISABLED });
    // and in the browser (the objects' Cache-Control)
    expect(ASSETS_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    expect(PAGES_CACHE_CONTROL).toBe('no-cache');
    const deployments = resourcesOf(api, 'Custom::CDKBucketDeployment').map((d) => d.Properties);
    expect(deployments.map((d) => [d.Include, d.Exclude, d.SystemMetadata, d.Prune])).toEqual([
      [['assets/*'], ['*'], { 'cache-control': ASSETS_CACHE_CONTROL }, false],
      [undefined, ['assets/*'], { 'cache-control': PAGES_CACHE_CONTROL }, false],
    ]);
  });

  it('uploads the pages only after the bundles they name', () => {
    const pages = logicalId(api, 'Custom::CDKBucketDeployment', 'ConsoleDeployPages');
    const assets = logicalId(api, 'Custom::CDKBucketDeployment', 'ConsoleDeployAssets');
    expect(api.toJSON().Resources[pages].DependsOn).toContain(assets);
  });
});

describe('console headers', () => {
  it('sends this Content-Security-Policy, exactly', () => {
    // Arrange
    const httpApi = logicalId(api, 'AWS::ApiGatewayV2::Api', 'HttpApi');
    const csp = headersPolicy('ConsolePageHeaders').SecurityHeadersConfig.ContentSecurityPolicy;

    // Assert
    expect(csp.Override).toBe(true);
    expect(render(csp.ContentSecurityPolicy)).toBe(
      [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "media-src 'self' blob: https://voice-agent-test-recordings-123456789012-eu-west-1.s3.eu-west-1.<AWS::URLSuffix>",
        `connect-src 'self' <${httpApi}.ApiEndpoint> wss://voice.example.com`,
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
      ].join('; '),
    );
  });

  it('sends HSTS (two years, subdomains), nosniff, frame DENY, no referrer and the microphone for itself only', () => {
    const config = headersPolicy('ConsolePageHeaders');
    expect(config.SecurityHeadersConfig).toMatchObject({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    expect(config.CustomHeadersConfig.Items).toEqual([
      { Header: 'Permissions-Policy', Value: 'camera=(), geolocation=(), microphone=(self)', Override: true },
    ]);
    expect(config).not.toHaveProperty('CorsConfig');
  });

  it('lets any page load the browser client (GET and HEAD, no credentials), and only the browser client', () => {
    // Arrange
    const embed = logicalId(api, 'AWS::CloudFront::ResponseHeadersPolicy', 'ConsoleEmbedHeaders');
    const config = distributionConfig();

    // Assert
    expect(headersPolicy('ConsoleEmbedHeaders').CorsConfig).toEqual({
      AccessControlAllowOrigins: { Items: ['*'] },
      AccessControlAllowMethods: { Items: ['GET', 'HEAD'] },
      AccessControlAllowHeaders: { Items: ['*'] },
      AccessControlAllowCredentials: false,
      OriginOverride: true,
    });
    const users = [config.DefaultCacheBehavior, ...config.CacheBehaviors].filter(
      (b: Record<string, { Ref?: string }>) => b.ResponseHeadersPolicyId!.Ref === embed,
    );
    expect(users.map((b: Record<string, unknown>) => b.PathPattern)).toEqual(['web-call*']);
  });
});

describe('console config.json and outputs', () => {
  it('writes config.json with the API base URL, resolved at deploy time', () => {
    // Arrange: the jsonData asset, staged in the cloud assembly with a marker for the API endpoint.
    const assembly = service.app.synth();
    const pages = resourcesOf(api, 'Custom::CDKBucketDeployment')[1]!.Properties;
    const configs = readdirSync(assembly.directory)
      .map((name) => join(assembly.directory, name, 'config.json'))
      .filter((path) => existsSync(path));

    // Assert
    expect(configs).toHaveLength(1);
    const json = JSON.parse(readFileSync(configs[0]!, 'utf8')) as { apiBaseUrl: string };
    const [marker, value] = Object.entries(pages.SourceMarkers[1] as Record<string, unknown>)[0]!;
    expect(json).toEqual({ apiBaseUrl: `${marker}/api/v1` });
    expect(render(value)).toBe(`<${logicalId(api, 'AWS::ApiGatewayV2::Api', 'HttpApi')}.ApiEndpoint>`);
  });

  it('outputs the console URL', () => {
    const distribution = logicalId(api, 'AWS::CloudFront::Distribution', 'ConsoleDistribution');
    expect(render(api.findOutputs('ConsoleUrl').ConsoleUrl!.Value)).toBe(`https://<${distribution}.DomainName>`);
  });
});

describe('console origin in the API and the media service', () => {
  it('gives the API function CONSOLE_ORIGIN (the distribution) and WEB_CALL_URL (the media host, /web/calls)', () => {
    const distribution = logicalId(api, 'AWS::CloudFront::Distribution', 'ConsoleDistribution');
    const env = apiEnvironment();
    expect(render(env.CONSOLE_ORIGIN)).toBe(`https://<${distribution}.DomainName>`);
    expect(env.WEB_CALL_URL).toBe('wss://voice.example.com/web/calls');
  });

  it('leaves CORS to the function (CONSOLE_ORIGIN only): API Gateway answers no preflight, for any origin', () => {
    const [httpApi] = resourcesOf(api, 'AWS::ApiGatewayV2::Api');
    expect(httpApi!.Properties).not.toHaveProperty('CorsConfiguration');
    expect(JSON.stringify(apiEnvironment())).not.toContain('*');
  });

  it('gives the media tasks CONSOLE_ORIGIN, the same distribution', () => {
    const media = service.templates.media;
    const container = resourcesOf(media, 'AWS::ECS::TaskDefinition')[0]!.Properties.ContainerDefinitions[0];
    const env = Object.fromEntries((container.Environment as Array<{ Name: string; Value: unknown }>).map((e) => [e.Name, e.Value]));
    expect(render(env.CONSOLE_ORIGIN)).toMatch(
      /^https:\/\/<import VoiceAgent-test-Api:ExportsOutputFnGetAttConsoleDistribution\w+DomainName\w*>$/,
    );
  });

  it('sends /web/calls and /web/listen to the media tasks as /twilio/media is: the listener forwards every path, no rule diverts one', () => {
    const media = service.templates.media;
    media.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
      DefaultActions: [{ Type: 'forward', TargetGroupArn: { Ref: Match.stringLikeRegexp('^LoadBalancer.*Media.*Group') } }],
    });
    media.resourceCountIs('AWS::ElasticLoadBalancingV2::ListenerRule', 0);
  });
});

describe('console build (a fixture folder stands in for the built console)', () => {
  /** A repository root with a built console and browser client, minus `leaveOut`. */
  function fixture(leaveOut: string[] = []): { root: string; output: string } {
    const root = mkdtempSync(join(tmpdir(), 'console-fixture-'));
    const files = {
      'console/dist/index.html': '<!doctype html><title>Console</title>',
      'console/dist/assets/index-3f2a1b.js': 'console.log(1)',
      ...Object.fromEntries(WEB_CLIENT_FILES.map((file) => [`web-client/dist/${file}`, `// ${file}`])),
    };
    for (const [path, text] of Object.entries(files)) {
      if (leaveOut.includes(path)) continue;
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const output = join(root, 'out');
    mkdirSync(output);
    return { root, output };
  }

  it('runs the build, then ships index.html, the hashed bundles and the browser client at the root', () => {
    // Arrange
    const { root, output } = fixture();
    const build = vi.fn();

    // Act
    const bundled = new ConsoleBundling(root, build).tryBundle(output);

    // Assert
    expect(bundled).toBe(true);
    expect(build).toHaveBeenCalledWith(root);
    expect(readdirSync(output).sort()).toEqual(['assets', 'index.html', ...WEB_CLIENT_FILES].sort());
    expect(readdirSync(join(output, 'assets'))).toEqual(['index-3f2a1b.js']);
  });

  it('refuses a partial build, naming what is missing, and ships nothing', () => {
    // Arrange
    const { root, output } = fixture(['console/dist/index.html', 'web-client/dist/web-call-worklet.js']);

    // Act / Assert
    expect(() => new ConsoleBundling(root, () => undefined).tryBundle(output)).toThrow(ConsoleNotBuiltError);
    expect(() => new ConsoleBundling(root, () => undefined).tryBundle(output)).toThrow(
      /missing console\/dist\/index\.html, web-client\/dist\/web-call-worklet\.js/,
    );
    expect(readdirSync(output)).toEqual([]);
  });

  it('fails the synthesis when the build fails, instead of shipping what an earlier build left', () => {
    const { root, output } = fixture();
    const failing = () => {
      throw new Error('npm run build:web failed (exit 1)');
    };
    expect(() => new ConsoleBundling(root, failing).tryBundle(output)).toThrow(/build:web failed/);
    expect(readdirSync(output)).toEqual([]);
  });
});
