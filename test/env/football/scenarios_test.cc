// src/env/football/scenarios.cc against what gfootball's Python scenario
// builders build: scenarios_reference.txt beside this file, written by
// bench/football/dump_scenarios.py from the unmodified builders. Floats must
// equal the Python double rounded to float exactly.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "seedrl/env/football/scenario.h"

namespace {

using seedrl::football::find_scenario;
using seedrl::football::PlayerSetup;
using seedrl::football::role_name;
using seedrl::football::Scenario;
using seedrl::football::scenarios;

struct RefPlayer {
  float x, y;
  std::string role;
  bool lazy, controllable;
};

// One scenario as built for one episode number.
struct RefEpisode {
  std::string name;
  int episode = 0;
  std::map<std::string, std::string> fields;  // config field -> Python repr
  float ball_x = 0, ball_y = 0;
  std::vector<RefPlayer> left, right;
};

float to_float(const std::string& s) { return static_cast<float>(std::strtod(s.c_str(), nullptr)); }

bool to_bool(const std::string& s) {
  if (s != "True" && s != "False") FAIL("not a Python bool: " << s);
  return s == "True";
}

std::vector<RefEpisode> read_reference() {
  const auto path = std::filesystem::path(__FILE__).parent_path() / "scenarios_reference.txt";
  std::ifstream in(path);
  if (!in) FAIL("cannot read " << path);
  std::vector<RefEpisode> episodes;
  RefEpisode* cur = nullptr;
  std::vector<RefPlayer>* team = nullptr;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "scenario") {
      std::string episode_word;
      episodes.emplace_back();
      cur = &episodes.back();
      words >> cur->name >> episode_word >> cur->episode;
      team = nullptr;
    } else if (cur == nullptr) {
      FAIL("outside a scenario: " << line);
    } else if (key == "end") {
      cur = nullptr;
    } else if (key == "ball") {
      std::string x, y;
      words >> x >> y;
      cur->ball_x = to_float(x);
      cur->ball_y = to_float(y);
    } else if (key == "left" || key == "right") {
      team = key == "left" ? &cur->left : &cur->right;
    } else if (key == "player") {
      if (team == nullptr) FAIL("a player before left/right: " << line);
      std::string x, y, role, lazy, controllable;
      words >> x >> y >> role >> lazy >> controllable;
      team->push_back({to_float(x), to_float(y), role, to_bool(lazy), to_bool(controllable)});
    } else {
      words >> cur->fields[key];
    }
    if (words.fail()) FAIL("cannot parse: " << line);
  }
  return episodes;
}

const std::vector<RefEpisode>& reference() {
  static const std::vector<RefEpisode> episodes = read_reference();
  return episodes;
}

void check_team(const std::vector<PlayerSetup>& ours, const std::vector<RefPlayer>& ref) {
  REQUIRE(ours.size() == ref.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    INFO("player " << i);
    CHECK(ours[i].x == ref[i].x);
    CHECK(ours[i].y == ref[i].y);
    CHECK(role_name(ours[i].role) == ref[i].role);
    CHECK(ours[i].lazy == ref[i].lazy);
    CHECK(ours[i].controllable == ref[i].controllable);
  }
}

const std::string& field(const RefEpisode& ref, const std::string& key) {
  auto it = ref.fields.find(key);
  if (it == ref.fields.end()) FAIL("the reference lacks " << key);
  return it->second;
}

}  // namespace

TEST_CASE("football scenarios match what the gfootball builders build", "[football]") {
  REQUIRE(reference().size() >= 2);
  for (const RefEpisode& ref : reference()) {
    INFO(ref.name << " episode " << ref.episode);
    const Scenario* s = find_scenario(ref.name);
    REQUIRE(s != nullptr);
    CHECK(s->name == ref.name);
    CHECK(s->game_duration == std::stoi(field(ref, "game_duration")));
    CHECK(s->second_half == std::stoi(field(ref, "second_half")));
    CHECK(s->left_team_difficulty == to_float(field(ref, "left_team_difficulty")));
    CHECK(s->right_team_difficulty == to_float(field(ref, "right_team_difficulty")));
    CHECK(s->deterministic == to_bool(field(ref, "deterministic")));
    CHECK(s->offsides == to_bool(field(ref, "offsides")));
    CHECK(s->end_episode_on_score == to_bool(field(ref, "end_episode_on_score")));
    CHECK(s->end_episode_on_out_of_play == to_bool(field(ref, "end_episode_on_out_of_play")));
    CHECK(s->end_episode_on_possession_change == to_bool(field(ref, "end_episode_on_possession_change")));
    CHECK(s->control_all_players == to_bool(field(ref, "control_all_players")));
    CHECK(ref.fields.size() == 10);  // no field the test does not know
    CHECK(s->ball_x == ref.ball_x);
    CHECK(s->ball_y == ref.ball_y);
    // Odd episode numbers swap the line-ups of the builders that look at EpisodeNumber().
    const bool swapped = ref.episode % 2 == 1 && s->swap_each_episode;
    {
      INFO("left team");
      check_team(swapped ? s->right : s->left, ref.left);
    }
    {
      INFO("right team");
      check_team(swapped ? s->left : s->right, ref.right);
    }
  }
}

TEST_CASE("football scenarios are the reference's, in name order, each built for an even and an odd episode",
          "[football]") {
  std::set<std::string> ref_names;
  std::map<std::string, std::set<int>> parities;
  for (const RefEpisode& ref : reference()) {
    ref_names.insert(ref.name);
    parities[ref.name].insert(ref.episode % 2);
  }
  std::set<std::string> names;
  for (const Scenario& s : scenarios()) {
    CHECK(names.insert(s.name).second);  // no name twice
    CHECK(ref_names.count(s.name) == 1);
  }
  CHECK(names == ref_names);
  for (const auto& [name, p] : parities) {
    INFO(name);
    CHECK(p == std::set<int>{0, 1});
  }
  for (std::size_t i = 1; i < scenarios().size(); ++i) CHECK(scenarios()[i - 1].name < scenarios()[i].name);
  CHECK(scenarios().size() == 18);
}

TEST_CASE("football find_scenario and role_name", "[football]") {
  CHECK(find_scenario("nope") == nullptr);
  CHECK(find_scenario("") == nullptr);
  CHECK(find_scenario("academy_empty_goal") == &scenarios()[11]);  // not its prefix's or extension's
  CHECK(find_scenario("academy_empty_goal_close") == &scenarios()[12]);
  CHECK(find_scenario("academy_empty_goal_") == nullptr);
  CHECK(std::string(role_name(seedrl::football::Role::kGK)) == "GK");
  CHECK(std::string(role_name(seedrl::football::Role::kDM)) == "DM");
  CHECK(std::string(role_name(seedrl::football::Role::kCF)) == "CF");
}
