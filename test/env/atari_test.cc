// atari:<game> against ALE itself (the same library, driven directly): the
// preprocessing, no-op starts, sticky actions, the life-loss flag, the frame
// limit, the reward sum and seeded replay. Compiled only when CMake found ALE
// and the ROMs (SEEDRL_TEST_ATARI_ROMS).
#include <catch2/catch.hpp>

#include <ale/ale_interface.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "area_resize_reference.h"
#include "seedrl/env/atari/atari_env.h"
#include "seedrl/env/atari/roms.h"
#include "seedrl/env/play.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/rng.h"

using namespace seedrl;
using atari::AtariEnv;

// Counts this thread's heap allocations, for the no-allocation check below
// (replaces the global operator new of this test binary).
namespace {
thread_local std::uint64_t g_allocations = 0;
}
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

EnvOptions rom_options() {
  EnvOptions o;
  o.rom_dir = SEEDRL_TEST_ATARI_ROMS;
  return o;
}

atari::AtariConfig config(const std::string& game, EnvOptions o = rom_options()) {
  if (o.rom_dir.empty()) o.rom_dir = SEEDRL_TEST_ATARI_ROMS;
  return atari::atari_config(game, o);
}

// A plain ALE on the same ROM, no sticky actions: replays what an env did
// from a state cloned off that env.
struct Reference {
  explicit Reference(const std::string& rom) {
    ale::Logger::setMode(ale::Logger::Error);
    ale.setInt("random_seed", 0);
    ale.setFloat("repeat_action_probability", 0.f);
    ale.setInt("max_num_frames_per_episode", 0);
    ale.loadROM(rom);
  }
  std::vector<double> gray() {
    std::vector<unsigned char> g;
    ale.getScreenGrayscale(g);
    return {g.begin(), g.end()};
  }
  std::string state() { return ale.cloneState().serialize(); }
  ale::ALEInterface ale;
};

constexpr int kObs = AtariEnv::kScreenSize * AtariEnv::kScreenSize;

}  // namespace

TEST_CASE("atari: the observation is ALE's grayscale, max-pooled over two frames, area-resized", "[env][atari]") {
  atari::AtariConfig c = config("pong");
  // SEED RL's 84x84, and a smaller frame (--screen-size) for a cheaper network.
  const int side = GENERATE(84, 42);
  c.screen_size = side;
  const int pixels = side * side;
  AtariEnv env(c);
  REQUIRE(env.spec().observation.shape == std::vector<std::int64_t>{side, side, 1});
  Reference ref(c.rom_path);
  std::vector<std::uint8_t> obs(pixels);
  env.reset(3, obs.data());
  Rng rng(5);
  int exact = 0, total = 0, scored = 0;
  for (int t = 0; t < 300; ++t) {
    const int a = static_cast<int>(rng.below(18));
    ref.ale.restoreState(env.ale().cloneState());
    // The reference: four frames, the last two kept in double precision,
    // their maximum, then the overlap-weighted mean.
    int reward = 0;
    std::vector<double> f2, f3;
    for (int k = 0; k < 4; ++k) {
      reward += ref.ale.act(static_cast<ale::Action>(a));
      if (k == 2) f2 = ref.gray();
      if (k == 3) f3 = ref.gray();
    }
    for (std::size_t i = 0; i < f2.size(); ++i) f2[i] = std::max(f2[i], f3[i]);
    const auto want = test::area_resize_reference(f2, 210, 160, side, side);

    const StepResult r = env.step(Action{a}, obs.data());
    REQUIRE(env.ale().cloneState().serialize() == ref.state());  // the same four frames
    REQUIRE(r.reward == static_cast<float>(reward));             // summed over them
    scored += reward != 0;
    for (int p = 0; p < pixels; ++p) {
      REQUIRE(std::abs(obs[p] - want[p]) <= 1.0);
      exact += obs[p] == std::lround(want[p]);
      ++total;
    }
    if (r.terminated || r.truncated) env.reset(std::nullopt, obs.data());
  }
  CHECK(scored > 0);  // points were scored, so the reward sum was checked
  // Off by one only where the mean is a rounding error away from a half.
  CHECK(exact >= total - total / 1000);
}

TEST_CASE("atari: no-op starts play 1 to noop_max no-op frames, varying with the seed", "[env][atari]") {
  AtariEnv env(config("pong"));
  std::vector<std::uint8_t> obs(kObs);
  std::set<int> seen;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    env.reset(seed, obs.data());
    REQUIRE(env.last_noops() >= 1);
    REQUIRE(env.last_noops() <= 30);
    // The no-ops are emulator frames of this episode.
    REQUIRE(env.ale().getEpisodeFrameNumber() == env.last_noops());
    seen.insert(env.last_noops());
  }
  CHECK(seen.size() >= 15);
  EnvOptions o = rom_options();
  o.noop_max = 0;
  AtariEnv none(config("pong", o));
  none.reset(1, obs.data());
  CHECK(none.last_noops() == 0);
  CHECK(none.ale().getEpisodeFrameNumber() == 0);
}

TEST_CASE("atari: sticky actions repeat the previous action on a quarter of the frames", "[env][atari]") {
  // Each emulator frame keeps the previous action with probability p, so a
  // step whose action differs from the last one applied starts with k frames
  // of the old action, P(k >= 1) = p, P(k >= 2 | k >= 1) = p. Which k
  // happened is read off the emulator: the env's state after the step is
  // matched against the five replays old^k new^(4-k) of a sticky-free ALE.
  EnvOptions o = rom_options();
  o.sticky_action_prob = 0.25;
  o.noop_max = 0;
  atari::AtariConfig c = config("pong", o);
  AtariEnv env(c);
  Reference ref(c.rom_path);
  std::vector<std::uint8_t> obs(kObs);
  env.reset(11, obs.data());
  int previous = ale::PLAYER_A_NOOP;  // the last action the emulator applied
  int informative = 0, sticky = 0, sticky2 = 0;
  for (int t = 0; t < 1200; ++t) {
    const int a = t % 2 == 0 ? ale::PLAYER_A_RIGHT : ale::PLAYER_A_LEFT;  // moves the paddle each way
    const ale::ALEState before = env.ale().cloneState();
    std::vector<std::string> outcome(5);
    for (int k = 0; k <= 4; ++k) {
      ref.ale.restoreState(before);
      for (int f = 0; f < 4; ++f) ref.ale.act(static_cast<ale::Action>(f < k ? previous : a));
      outcome[k] = ref.state();
    }
    const StepResult r = env.step(Action{a}, obs.data());
    const std::string got = env.ale().cloneState().serialize();
    std::vector<int> matches;
    for (int k = 0; k <= 4; ++k)
      if (outcome[k] == got) matches.push_back(k);
    REQUIRE(!matches.empty());  // the emulator did one of these
    bool all_old = false;
    if (previous != a && matches.size() == 1) {
      const int k = matches[0];
      ++informative;
      sticky += k >= 1;
      sticky2 += k >= 2;
      all_old = k == 4;  // then the old action is still the last applied
    }
    if (!all_old) previous = a;
    if (r.terminated || r.truncated) {
      env.reset(std::nullopt, obs.data());
      previous = ale::PLAYER_A_NOOP;
    }
  }
  INFO("informative steps " << informative << ", sticky " << sticky << ", twice " << sticky2);
  REQUIRE(informative >= 1000);
  const double p = static_cast<double>(sticky) / informative;
  CHECK(std::abs(p - 0.25) < 0.055);  // 4 standard errors
  CHECK(std::abs(static_cast<double>(sticky2) / sticky - 0.25) < 0.11);

  // Off by default: every step applies its action from its first frame.
  EnvOptions plain = rom_options();
  CHECK(config("pong", plain).sticky_action_prob == 0.0);
  CHECK(AtariEnv(config("pong", plain)).ale().getFloat("repeat_action_probability") == 0.f);
}

TEST_CASE("atari: a lost life terminates only with --terminal-on-life-loss, and the game goes on", "[env][atari]") {
  std::vector<std::uint8_t> obs(kObs);
  Rng rng(2);
  for (const bool flag : {false, true}) {
    EnvOptions o = rom_options();
    o.terminal_on_life_loss = flag;
    AtariEnv env(config("breakout", o));
    env.reset(4, obs.data());
    const int lives = env.ale().lives();
    REQUIRE(lives == 5);
    int steps = 0;
    StepResult r;
    while (!r.terminated && !r.truncated && steps < 20000) {
      r = env.step(Action{static_cast<int>(rng.below(18))}, obs.data());
      ++steps;
    }
    REQUIRE(r.terminated);
    if (!flag) {
      CHECK_FALSE(r.life_lost);
      CHECK(env.ale().lives() == 0);  // only the game over ended it
      CHECK(env.ale().game_over());
      continue;
    }
    CHECK(env.ale().lives() == lives - 1);
    CHECK_FALSE(env.ale().game_over());
    CHECK(r.life_lost);  // the statistics carry on to the game's end
    // The next reset continues the game: same frame count, one life fewer.
    const int frame = env.ale().getEpisodeFrameNumber();
    env.reset(std::nullopt, obs.data());
    CHECK(env.ale().getEpisodeFrameNumber() == frame);
    CHECK(env.ale().lives() == lives - 1);
    // Until the game is over; then the reset starts a new game.
    int ends = 1;
    while (!env.ale().game_over() && ends < 10) {
      r = env.step(Action{static_cast<int>(rng.below(18))}, obs.data());
      if (r.terminated) {
        ++ends;
        CHECK(r.life_lost == !env.ale().game_over());  // the game over's terminal is no lost life
        if (!env.ale().game_over()) env.reset(std::nullopt, obs.data());
      }
    }
    CHECK(ends == lives);
    env.reset(std::nullopt, obs.data());
    CHECK(env.ale().lives() == lives);
    CHECK(env.ale().getEpisodeFrameNumber() == env.last_noops());
  }
}

TEST_CASE("atari: --minimal-action-set offers the game's own actions, each the full set's same action",
          "[env][atari]") {
  // Gymnasium's action meanings for ALE/Pong-v5 and ALE/Breakout-v5 (its
  // documented minimal sets), not ALE's list read back.
  const std::vector<std::pair<std::string, std::vector<std::string>>> games = {
      {"pong", {"NOOP", "FIRE", "RIGHT", "LEFT", "RIGHTFIRE", "LEFTFIRE"}},
      {"breakout", {"NOOP", "FIRE", "RIGHT", "LEFT"}}};
  for (const auto& [game, meanings] : games) {
    EnvOptions o = rom_options();
    o.minimal_action_set = true;
    AtariEnv minimal(config(game, o));
    AtariEnv full(config(game));
    REQUIRE(minimal.spec().action.num_actions == static_cast<int>(meanings.size()));
    CHECK(minimal.spec().action_names == meanings);
    CHECK(full.spec().action.num_actions == 18);
    // The registry's spec (no emulator) says the same.
    CHECK(EnvRegistry::builtin().spec("atari:" + game, o).action.num_actions == static_cast<int>(meanings.size()));
    // Minimal action i plays the full set's action of the same name: the
    // two envs, seeded alike, stay frame for frame the same.
    std::vector<int> to_full;
    for (const auto& m : meanings) {
      const auto& names = full.spec().action_names;
      to_full.push_back(static_cast<int>(std::find(names.begin(), names.end(), m) - names.begin()));
    }
    std::vector<std::uint8_t> a(kObs), b(kObs);
    minimal.reset(11, a.data());
    full.reset(11, b.data());
    Rng rng(3);
    double reward_a = 0, reward_b = 0;
    for (int t = 0; t < 2000; ++t) {
      const int i = static_cast<int>(rng.below(meanings.size()));
      const StepResult ra = minimal.step(Action{i}, a.data());
      const StepResult rb = full.step(Action{to_full[static_cast<std::size_t>(i)]}, b.data());
      reward_a += ra.reward;
      reward_b += rb.reward;
      REQUIRE(a == b);
      REQUIRE(ra.terminated == rb.terminated);
      if (ra.terminated || ra.truncated) break;
    }
    CHECK(reward_a == reward_b);
    CHECK_THROWS_AS(minimal.step(Action{static_cast<int>(meanings.size())}, a.data()), std::out_of_range);
  }
}

// Forwards to an Atari env, counting what play_episodes does not see.
struct LifeCounter final : Env {
  explicit LifeCounter(AtariEnv& env) : inner(env) {}
  const EnvSpec& spec() const override { return inner.spec(); }
  void reset(std::optional<std::uint64_t> seed, void* obs) override {
    ++resets;
    inner.reset(seed, obs);
  }
  StepResult step(const Action& action, void* obs) override {
    const StepResult r = inner.step(action, obs);
    score += r.reward;
    ++steps;
    return r;
  }
  AtariEnv& inner;
  int resets = 0;
  std::int64_t steps = 0;
  double score = 0;
};

TEST_CASE("atari: eval plays a game across its lost lives as one episode, each life a first step for the policy",
          "[env][atari]") {
  EnvOptions o = rom_options();
  o.terminal_on_life_loss = true;
  AtariEnv atari(config("breakout", o));
  LifeCounter env(atari);
  Rng rng(5);
  int firsts = 0;
  const PlayPolicy policy = [&](const void*, bool first, float, float* action) {
    firsts += first;
    action[0] = static_cast<float>(rng.below(18));
  };
  const PlayStats stats = play_episodes(env, policy, 2, 9, nullptr);
  CHECK(atari.ale().game_over());
  CHECK(stats.episodes == 2);
  CHECK(env.resets == 10);  // two games of Breakout's five lives
  CHECK(firsts == 10);
  CHECK(stats.return_mean == Approx(env.score / 2));
  CHECK(stats.length_mean == Approx(static_cast<double>(env.steps) / 2));
}

TEST_CASE("atari: the frame limit truncates, it does not terminate", "[env][atari]") {
  CHECK(EnvOptions{}.max_episode_frames == 108000);
  CHECK(AtariEnv(config("pong")).ale().getInt("max_num_frames_per_episode") == 108000);

  for (const int noop_max : {0, 7}) {
    EnvOptions o = rom_options();
    o.max_episode_frames = 202;
    o.noop_max = noop_max;
    AtariEnv env(config("pong", o));
    std::vector<std::uint8_t> obs(kObs);
    env.reset(9, obs.data());
    const int noops = env.last_noops();
    int steps = 0;
    StepResult r;
    while (!r.terminated && !r.truncated) {
      r = env.step(Action{0}, obs.data());
      ++steps;
    }
    INFO("no-ops " << noops);
    CHECK(r.truncated);
    CHECK_FALSE(r.terminated);
    CHECK(env.ale().getEpisodeFrameNumber() == 202);  // the last step cut short where needed
    CHECK(steps == (202 - noops + 3) / 4);
  }
}

TEST_CASE("atari: a fixed seed replays the same episodes", "[env][atari]") {
  EnvOptions o = rom_options();
  o.sticky_action_prob = 0.25;
  auto run = [&](AtariEnv& env, std::uint64_t seed) {
    std::vector<std::uint8_t> obs(kObs), all;
    Rng actions(99);
    env.reset(seed, obs.data());
    all.insert(all.end(), obs.begin(), obs.end());
    double ret = 0;
    for (int t = 0; t < 400; ++t) {
      const StepResult r = env.step(Action{static_cast<int>(actions.below(18))}, obs.data());
      ret += r.reward;
      all.insert(all.end(), obs.begin(), obs.end());
      if (r.terminated || r.truncated) env.reset(std::nullopt, obs.data());
    }
    all.push_back(static_cast<std::uint8_t>(ret + 128));
    return all;
  };
  AtariEnv a(config("pong", o)), b(config("pong", o));
  const auto first = run(a, 42);
  // (Parenthesised: Catch would print megabytes of frames on a failure.)
  CHECK((run(b, 42) == first));
  CHECK((run(a, 42) == first));  // reseeding a used env starts it afresh
  CHECK((run(b, 43) != first));

  // Both of ALE's generators restart from the seed as well: the console's
  // shows only in games that read the RAM they power on with, not Pong.
  AtariEnv fresh(config("pong", o));
  std::vector<std::uint8_t> obs(kObs);
  fresh.reset(42, obs.data());
  a.reset(42, obs.data());
  CHECK(a.ale().theOSystem->console().system().rng().next() == fresh.ale().theOSystem->console().system().rng().next());
  CHECK(a.ale().environment->getEnvironmentRNG().next() == fresh.ale().environment->getEnvironmentRNG().next());
}

TEST_CASE("atari:<game> through the registry: spec, frame stack, ROM errors", "[env][atari]") {
  const auto& registry = EnvRegistry::builtin();
  const EnvOptions o = rom_options();
  auto env = registry.make("atari:pong", o);
  CHECK(env->spec().name == "atari:pong");
  CHECK(env->spec().observation.to_string() == "uint8[84,84,4]");
  CHECK(env->spec().action.to_string() == "discrete(18)");
  EnvOptions single = o;
  single.frame_stack = 1;
  CHECK(registry.make("atari:space_invaders", single)->spec().observation.to_string() == "uint8[84,84,1]");

  // Every ROM of the directory is a game.
  const auto& family = registry.families();
  const auto it = std::find_if(family.begin(), family.end(), [](const auto& f) { return f.prefix == "atari:"; });
  REQUIRE(it != family.end());
  const auto games = it->list(o);
  CHECK(games.size() >= 100);
  CHECK(std::count(games.begin(), games.end(), "breakout") == 1);

  // A missing ROM: one line naming the game, the directory and the flag.
  try {
    registry.make("atari:nonexistent_game", o);
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    CHECK_THAT(m,
               Catch::Contains("atari:nonexistent_game") && Catch::Contains(o.rom_dir) && Catch::Contains("--rom-dir"));
    CHECK(m.find('\n') == std::string::npos);
  }
  // A file ALE does not know (ALE itself would end the process).
  const auto dir = std::filesystem::temp_directory_path() / "seedrl_atari_unknown_rom";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "my_game.bin") << "not a ROM";
  EnvOptions bad = o;
  bad.rom_dir = dir.string();
  CHECK_THROWS_WITH(registry.make("atari:my_game", bad), Catch::Contains("atari:my_game") &&
                                                             Catch::Contains("ALE does not know") &&
                                                             Catch::Contains("--rom-dir"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("atari: a ROM is checked by its MD5 before ALE loads it", "[env][atari]") {
  const auto& registry = EnvRegistry::builtin();
  const EnvOptions o = rom_options();
  const auto dir = std::filesystem::temp_directory_path() / "seedrl_atari_bad_roms";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  EnvOptions bad = o;
  bad.rom_dir = dir.string();
  const auto read = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string pong = read(std::filesystem::path(o.rom_dir) / "pong.bin");
  REQUIRE(pong.size() >= 2048);
  // The MD5 ALE itself expects for pong.
  std::unique_ptr<ale::RomSettings> settings(ale::buildRomRLWrapper("pong.bin", std::string()));
  REQUIRE(settings);
  const std::string expected_md5 = settings->md5();
  const auto refused = [&](const std::string& bytes) {
    std::ofstream(dir / "pong.bin", std::ios::binary | std::ios::trunc) << bytes;
    try {
      registry.make("atari:pong", bad);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // 4 KiB of random bytes named pong.bin: ALE would print "Illegal
  // Instruction" and spin. Refused in one line naming the file, the MD5
  // expected and the flag that accepts it.
  std::string random(4096, '\0');
  Rng rng(7);
  for (char& c : random) c = static_cast<char>(rng.below(256));
  for (const std::string& bytes : {random, pong.substr(0, pong.size() / 2)}) {
    const std::string m = refused(bytes);
    CHECK_THAT(m, Catch::Contains((dir / "pong.bin").string()) && Catch::Contains(expected_md5) &&
                      Catch::Contains("--accept-unknown-rom"));
    CHECK(m.find('\n') == std::string::npos);
  }
  // Not a ROM at all: empty.
  CHECK_THAT(refused(""), Catch::Contains("not an Atari 2600 ROM"));
  // The real bytes under another name ALE knows by their MD5: accepted.
  std::ofstream(dir / "my_pong.bin", std::ios::binary) << pong;
  CHECK(registry.make("atari:my_pong", bad)->spec().name == "atari:my_pong");
  std::filesystem::remove_all(dir);
}

TEST_CASE("atari: the registry says a game's spec without starting its emulator, as make() would", "[env][atari]") {
  const auto& registry = EnvRegistry::builtin();
  EnvOptions o = rom_options();
  for (const int stack : {0, 1, 3}) {
    o.frame_stack = stack;
    o.time_limit = stack == 3 ? 50 : 0;
    const EnvSpec quick = registry.spec("atari:breakout", o);
    const EnvSpec made = registry.make("atari:breakout", o)->spec();
    CHECK(quick.name == made.name);
    CHECK(quick.observation.to_string() == made.observation.to_string());
    CHECK(quick.action.to_string() == made.action.to_string());
    CHECK(quick.action_names == made.action_names);
    CHECK(quick.observation_names == made.observation_names);
    CHECK(quick.max_episode_steps == made.max_episode_steps);
  }
  // A game that is not there: the same one-line error as make().
  CHECK_THROWS_WITH(registry.spec("atari:nonexistent_game", o), Catch::Contains("no ROM nonexistent_game.bin"));
}

TEST_CASE("atari: a step allocates nothing, through the frame stack too", "[env][atari]") {
  EnvOptions o = rom_options();
  o.sticky_action_prob = 0.25;
  o.terminal_on_life_loss = true;
  auto env = EnvRegistry::builtin().make("atari:breakout", o);
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  Rng rng(1);
  env->reset(1, obs.data());
  std::vector<Action> actions(2000);
  for (auto& a : actions) a.index = static_cast<int>(rng.below(18));
  std::uint64_t in_steps = 0;
  int ends = 0;
  for (const Action& a : actions) {
    const std::uint64_t before = g_allocations;
    const StepResult r = env->step(a, obs.data());
    in_steps += g_allocations - before;
    if (r.terminated || r.truncated) {
      // (ALE's own reset_game allocates a small object per new game.)
      env->reset(std::nullopt, obs.data());
      ++ends;
    }
  }
  CHECK(in_steps == 0);
  CHECK(ends >= 5);  // lost lives and game overs included
}

TEST_CASE("atari: the recorded picture is ALE's RGB screen of the step's last frame", "[env][atari][render]") {
  atari::AtariConfig c = config("breakout");
  AtariEnv env(c);
  std::vector<std::uint8_t> obs(kObs);
  env.reset(11, obs.data());
  Rng rng(3);
  for (int t = 0; t < 60; ++t) {
    RgbImage img;
    REQUIRE(env.render_rgb(img));
    std::vector<unsigned char> want;
    env.ale().getScreenRGB(want);
    REQUIRE(img.height == 210);
    REQUIRE(img.width == 160);
    REQUIRE(img.rgb.size() == want.size());
    REQUIRE(std::equal(want.begin(), want.end(), img.rgb.begin()));
    if (env.step(Action{static_cast<int>(rng.below(18)), nullptr}, obs.data()).terminated)
      env.reset(std::nullopt, obs.data());
  }
  CHECK(env.render_fps() == 15);  // 60 Hz over the default frame skip of 4
}
