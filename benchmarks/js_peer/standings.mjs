// Optional benchmark peer: the same MTG-style standings computed by tournament-organizer 4.1.1.
//
//   node benchmarks/js_peer/standings.mjs EVENT.json [WARM_RUNS]
//
// EVENT.json (written by benchmarks/run.py): {"name", "rounds", "players": [ids],
// "matches": [{"round", "a", "b" (null = bye), "ga", "gb", "gd"}]}. The event is loaded with
// Manager.loadTournament (how tournament-organizer reloads a saved tournament), then
// Tournament.getStandings() computes match points, MW%, GW%, OMW%, OGW% and sorts by
// points -> OMW% -> GW% -> OGW%. Scoring 3/1/0, bye 3, a drawn game worth 1 of 3: the MTR
// percentages without the 0.33 floor (run.py compares them with swissframe's, floor 0).
//
// Prints one JSON object: CPU and wall milliseconds of the load and of the first (cold)
// getStandings() call, the median of WARM_RUNS further calls, and the standings rows.
import { readFileSync } from 'node:fs';
import { Manager } from 'tournament-organizer/components';

const [file, warmArg] = process.argv.slice(2);
const warmRuns = Number(warmArg ?? 5);
const event = JSON.parse(readFileSync(file, 'utf8'));

function tournamentValues(ev) {
  const players = new Map(ev.players.map(id => [id, []]));
  const matches = [];
  ev.matches.forEach((m, i) => {
    const id = `m${i}`;
    const bye = m.b === null;
    matches.push({
      id, round: m.round, match: i + 1, active: false, bye, loss: false,
      player1: { id: m.a, win: m.ga, loss: m.gb, draw: m.gd },
      player2: { id: m.b, win: m.gb, loss: m.ga, draw: m.gd },
      path: { win: null, loss: null }, meta: {},
    });
    players.get(m.a).push({ id, opponent: m.b, pairUpDown: false, seating: null, bye,
                            win: m.ga, loss: m.gb, draw: m.gd });
    if (!bye) {
      players.get(m.b).push({ id, opponent: m.a, pairUpDown: false, seating: null, bye: false,
                              win: m.gb, loss: m.ga, draw: m.gd });
    }
  });
  return {
    id: ev.name, name: ev.name, status: 'stage-one', round: ev.rounds, sorting: 'none',
    seating: false,
    scoring: { bestOf: 3, win: 3, draw: 1, loss: 0, bye: 3,
               tiebreaks: ['opponent match win percentage', 'game win percentage',
                           'opponent game win percentage'] },
    stageOne: { format: 'swiss', consolation: false, rounds: ev.rounds, initialRound: 1,
                maxPlayers: 0 },
    stageTwo: { format: null, consolation: false, advance: { value: 0, method: 'all' } },
    meta: {},
    players: ev.players.map(id => ({ id, name: id, active: true, value: 0,
                                     matches: players.get(id), meta: {} })),
    matches,
  };
}

function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const out = fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return [out, (c.user + c.system) / 1000, wall];
}

const median = xs => { const s = [...xs].sort((a, b) => a - b); const n = s.length;
                       return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };

const [tournament, loadCpu, loadWall] = timed(() => new Manager().loadTournament(tournamentValues(event)));
const [standings, coldCpu, coldWall] = timed(() => tournament.getStandings());
const warmCpu = [];
const warmWall = [];
for (let i = 0; i < warmRuns; i++) {
  const [, c, w] = timed(() => tournament.getStandings());
  warmCpu.push(c);
  warmWall.push(w);
}
process.stdout.write(JSON.stringify({
  load_cpu_ms: loadCpu, load_wall_ms: loadWall, cold_cpu_ms: coldCpu, cold_wall_ms: coldWall,
  warm_cpu_ms: warmRuns ? median(warmCpu) : null, warm_wall_ms: warmRuns ? median(warmWall) : null,
  rows: standings.map(s => ({ player_id: s.player.getId(), match_points: s.matchPoints,
                              mwp: s.tiebreaks.matchWinPct, gwp: s.tiebreaks.gameWinPct,
                              omwp: s.tiebreaks.oppMatchWinPct, ogwp: s.tiebreaks.oppGameWinPct })),
}) + '\n');
