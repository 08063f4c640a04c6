import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dockerignore from '@balena/dockerignore';
import { DockerfileParser, type Copy, type Env, type Instruction } from 'dockerfile-ast';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../packages/agentic-rag/src/index.js';

// Docker does not run on the test machines, so this checks what can be checked without it: the
// Dockerfile's inputs against the build context (.dockerignore applied as Docker applies it), the
// runtime stage's user, health check and ports, and compose.yaml against the configuration schema.
// deploy.int.test.ts runs the entry point and the health check against real services.

const REPO = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');
const variables = new Set(Object.keys(configSchema.shape));
// The package sets `default` on its CommonJS export so that TypeScript's view and Node's agree.
const context = dockerignore.default({ ignorecase: false }).add(read('.dockerignore'));
const defaults = loadConfig({});

interface Stage {
  name: string | null;
  image: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages in order, each with its own instructions. */
function stages(): Stage[] {
  const result: Stage[] = [];
  for (const instruction of DockerfileParser.parse(read('Dockerfile')).getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const [image, as, name] = instruction.getArguments().map((argument) => argument.getValue());
      result.push({ name: as?.toUpperCase() === 'AS' ? name! : null, image: image!, instructions: [] });
    } else {
      result.at(-1)!.instructions.push(instruction);
    }
  }
  return result;
}

/** A COPY's `--from` stage, if any, and its sources (every argument but the destination; flags are not arguments). */
function copyOf(instruction: Instruction): { from: string | null; sources: string[] } {
  const from = (instruction as Copy).getFromFlag()?.getValue() ?? null;
  return {
    from,
    sources: instruction
      .getArguments()
      .map((argument) => argument.getValue())
      .slice(0, -1),
  };
}

/** What the context holds: files git tracks or would track (new ones too), as Docker would see them. */
function repositoryFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout.split('\0').filter((file) => file && existsSync(path.join(REPO, file)));
}

/** `registry.example.com/x` or `localhost:5000/x`: an image reference that names a registry host. */
function namesRegistryHost(image: string): boolean {
  const first = image.split('/')[0]!;
  return image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
}

describe('Dockerfile', () => {
  const all = stages();
  const runtime = all.at(-1)!;
  const names = all.map((stage) => stage.name);
  const instructionsOf = (stage: Stage, keyword: string) =>
    stage.instructions.filter((instruction) => instruction.getKeyword() === keyword);

  it('builds from Node 20 on Debian bookworm, by Docker Hub short names only', () => {
    const external = all.filter((stage) => !names.includes(stage.image));
    expect(external.map((stage) => stage.image)).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim']);
    expect(all.filter((stage) => namesRegistryHost(stage.image))).toEqual([]);
  });

  it('copies only what the build context sends', () => {
    const problems: string[] = [];
    for (const stage of all) {
      for (const instruction of instructionsOf(stage, 'COPY')) {
        const { from, sources } = copyOf(instruction);
        if (from !== null) {
          if (!names.includes(from)) problems.push(`COPY --from=${from}: no such stage`);
          continue;
        }
        for (const source of sources) {
          if (!existsSync(path.join(REPO, source))) problems.push(`COPY ${source}: missing`);
          else if (source !== '.' && context.ignores(source))
            problems.push(`COPY ${source}: in .dockerignore`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('sends every file the build and the image need, and nothing built, installed or secret', () => {
    const needed = repositoryFiles().filter(
      (file) =>
        /^(apps|packages|scripts|migrations|deploy)\//.test(file) ||
        ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'tsconfig.base.json'].includes(
          file,
        ),
    );
    expect(needed).toContain('packages/agentic-rag/src/index.ts');
    expect(needed.filter((file) => context.ignores(file))).toEqual([]);
    const kept = [
      'node_modules/pg/package.json',
      'packages/agentic-rag/node_modules/pg/package.json',
      'apps/api/dist/main.js',
      'packages/agentic-rag/tsconfig.build.tsbuildinfo',
      '.git/HEAD',
      '.data/admin.key',
      '.data/pglite/PG_VERSION',
      '.env',
      'eval/results/run.json',
      'bench-results/load.json',
    ];
    expect(kept.filter((file) => !context.ignores(file))).toEqual([]);
  });

  it('installs every workspace package, whichever exist', () => {
    const manifests = all.find((stage) => stage.name === 'manifests')!;
    const copied = instructionsOf(manifests, 'COPY').flatMap((instruction) => copyOf(instruction).sources);
    const workspace = parse(read('pnpm-workspace.yaml')) as { packages: string[] };
    // pnpm-workspace.yaml's globs are `<folder>/*`: the stage copies each folder whole.
    expect(copied).toEqual(
      expect.arrayContaining(workspace.packages.map((glob) => glob.replace(/\/\*$/, ''))),
    );
    expect(copied).toEqual(expect.arrayContaining(['pnpm-lock.yaml', 'pnpm-workspace.yaml']));
    const installs = all.flatMap((stage) =>
      instructionsOf(stage, 'RUN')
        .map((instruction) => instruction.getArgumentsContent() ?? '')
        .filter((command) => command.includes('pnpm install')),
    );
    expect(installs.every((command) => command.includes('--frozen-lockfile'))).toBe(true);
  });

  it('runs as a non-root user with a node health check on /healthz and the configured port exposed', () => {
    const users = instructionsOf(runtime, 'USER').map((instruction) => instruction.getArgumentsContent()!);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);

    const [healthcheck] = instructionsOf(runtime, 'HEALTHCHECK');
    const probe = healthcheck!.getArgumentsContent()!;
    expect(probe).toMatch(/CMD \["node", "\/app\/deploy\/healthcheck\.mjs", "api"\]/);
    expect(read('deploy/healthcheck.mjs')).toContain("path: '/healthz'");
    const copiedToDeploy = instructionsOf(runtime, 'COPY').flatMap(
      (instruction) => copyOf(instruction).sources,
    );
    expect(copiedToDeploy).toEqual(
      expect.arrayContaining(['deploy/healthcheck.mjs', 'deploy/docker-entrypoint.sh']),
    );

    const exposed = instructionsOf(runtime, 'EXPOSE').flatMap((instruction) =>
      instruction.getArguments().map((argument) => Number(argument.getValue())),
    );
    expect(exposed).toEqual([
      defaults.PORT,
      defaults.AGENTIC_RAG_WORKER_METRICS_PORT,
      defaults.AGENTIC_RAG_MCP_PORT,
    ]);
  });

  it('sets only variables the service reads, to values it accepts', () => {
    const environment = Object.fromEntries(
      instructionsOf(runtime, 'ENV').flatMap((instruction) =>
        (instruction as Env)
          .getProperties()
          .map((property) => [property.getName(), property.getValue() ?? '']),
      ),
    );
    expect(Object.keys(environment).filter((name) => !variables.has(name))).toEqual([]);
    const config = loadConfig(environment);
    expect(config).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: 4000, DATA_DIR: '/data' });
  });

  it('carries the migrations where the compiled code looks for them', () => {
    // db/migrate.ts finds migrations/ four levels above its own file: the repository root, /app.
    expect(read('packages/agentic-rag/src/db/migrate.ts')).toContain("new URL('../../../../migrations/'");
    const workdir = instructionsOf(runtime, 'WORKDIR').map((instruction) =>
      instruction.getArgumentsContent(),
    );
    expect(workdir).toEqual(['/app']);
    expect(instructionsOf(runtime, 'COPY').map((instruction) => instruction.getArgumentsContent())).toContain(
      'migrations ./migrations',
    );
  });
});

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const services = Object.entries(compose.services);
  const ours = services.filter(([, service]) => service.build !== undefined);

  it('runs the API, a worker, the migrations, Postgres with pgvector and Redis; Neo4j and MCP by profile', () => {
    const always = services.filter(([, service]) => !service.profiles).map(([name]) => name);
    expect(always.sort()).toEqual(['api', 'migrate', 'postgres', 'redis', 'worker']);
    expect(compose.services.neo4j?.profiles).toEqual(['neo4j']);
    expect(compose.services.mcp?.profiles).toEqual(['mcp']);
    expect(compose.services.postgres?.image).toMatch(/^pgvector\/pgvector:pg\d+$/);
    expect(ours.map(([name, service]) => [name, service.command?.[0]])).toEqual([
      ['migrate', 'migrate'],
      ['api', 'api'],
      ['worker', 'worker'],
      ['mcp', 'mcp'],
    ]);
    expect(services.filter(([, service]) => service.image && namesRegistryHost(service.image))).toEqual([]);
  });

  it('gives the app containers only variables the service reads, with values it accepts', () => {
    for (const [name, service] of ours) {
      const environment = service.environment ?? {};
      expect([name, Object.keys(environment).filter((key) => !variables.has(key))]).toEqual([name, []]);
      // As compose would fill them from an empty .env with the required password set.
      const filled = Object.fromEntries(
        Object.entries(environment).map(([key, value]) => [
          key,
          String(value)
            .replace(/\$\{[A-Z0-9_]+:\?[^}]*\}/g, 'secret')
            .replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1'),
        ]),
      );
      const config = loadConfig(filled);
      expect(config.DATABASE_URL).toBe('postgres://rag:secret@postgres:5432/rag');
      expect(config.REDIS_URL).toBe('redis://redis:6379');
      expect(config.NEO4J_URI).toBeUndefined();
    }
  });

  it('starts each service after what it needs is healthy, and checks every long-running one', () => {
    for (const [name, service] of services) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency];
        expect([name, dependency, target !== undefined]).toEqual([name, dependency, true]);
        if (condition === 'service_healthy') expect(target!.healthcheck?.test).toBeDefined();
        // The only other wait: for the one-shot migrations to have succeeded.
        else
          expect({ dependency, condition }).toEqual({
            dependency: 'migrate',
            condition: 'service_completed_successfully',
          });
      }
      const runsOnce = service.command?.[0] === 'migrate';
      // Ours inherit the image's HEALTHCHECK (the API's) unless they say otherwise.
      const checked =
        service.healthcheck?.test !== undefined ||
        (service.build !== undefined && service.command?.[0] === 'api');
      expect([name, runsOnce ? service.healthcheck?.disable : checked]).toEqual([name, true]);
    }
    for (const role of ['worker', 'mcp']) {
      expect(compose.services[role]?.healthcheck?.test).toEqual([
        'CMD',
        'node',
        '/app/deploy/healthcheck.mjs',
        role,
      ]);
    }
  });

  it('keeps the data in named volumes', () => {
    const mounted = services.flatMap(([, service]) =>
      (service.volumes ?? []).map((volume) => volume.split(':')[0]),
    );
    expect(mounted.sort()).toEqual(Object.keys(compose.volumes).sort());
    expect(compose.services.postgres?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    // The image's DATA_DIR: where the first start writes the admin key.
    expect(compose.services.api?.volumes).toEqual(['api-data:/data']);
  });
});

/** `docker compose` (the plugin) or, failing that, the standalone `docker-compose`; null when neither runs. */
function composeCommand(): string[] | null {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (probe.status === 0) return command;
  }
  return null;
}

describe('compose.yaml with the compose tool', () => {
  const command = composeCommand();
  if (!command)
    console.log('skipping `docker compose config`: neither `docker compose` nor `docker-compose` runs here');

  it.runIf(command)('is accepted by `docker compose config`, with each profile', () => {
    for (const profiles of [[], ['neo4j', 'mcp']]) {
      const result = spawnSync(
        command![0]!,
        [
          ...command!.slice(1),
          '-f',
          'compose.yaml',
          ...profiles.flatMap((profile) => ['--profile', profile]),
          'config',
          '--quiet',
        ],
        {
          cwd: REPO,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: process.env.HOME, POSTGRES_PASSWORD: 'secret' },
        },
      );
      expect([profiles, result.status, result.stderr]).toEqual([profiles, 0, '']);
    }
    // The password is required: compose refuses to start without one.
    const missing = spawnSync(
      command![0]!,
      [...command!.slice(1), '-f', 'compose.yaml', 'config', '--quiet'],
      {
        cwd: REPO,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
      },
    );
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('set POSTGRES_PASSWORD');
  });
});

it('keeps the entry point runnable by a POSIX shell', () => {
  const script = path.join(REPO, 'deploy/docker-entrypoint.sh');
  expect(statSync(script).mode & 0o111).not.toBe(0);
  const syntax = spawnSync('sh', ['-n', script], { encoding: 'utf8' });
  expect([syntax.status, syntax.stderr]).toEqual([0, '']);
});
