// Every seedrl command line the README, docs/ and the configs' comments show
// parses as the binary parses it: fenced lines and inline `seedrl ...` spans.
// A concrete line is parsed with every flag's validators (a train --config
// file applied too) and checked, for train, bench and actor, for a flag its
// algorithm or env would ignore; a synopsis (placeholders such as PATH, N,
// HOST:PORT, [optional] or a|b) has each of its flags checked to exist.
// Nothing runs.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "run_binary.h"
#include "seedrl/cli/algorithm_flags.h"
#include "seedrl/cli/commands.h"
#include "seedrl/cli/config_file.h"
#include "seedrl/cli/env_flags.h"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = seedrl::test::source_dir();

struct DocCommand {
  std::string where;               // file:line
  std::vector<std::string> words;  // "train", "--env", "cartpole", ...
  bool inline_span = false;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t\r") + 1);
  return s;
}

// "seedrl train --env x" (or build/seedrl, or after "$ ") as its words after
// "seedrl"; shell comments and what follows "&&", ";" or "|" dropped.
std::vector<std::string> words_of(std::string text) {
  text = trim(text);
  if (text.rfind("$ ", 0) == 0) text = trim(text.substr(2));
  if (text.rfind("build/", 0) == 0) text = text.substr(6);
  if (text.rfind("seedrl ", 0) != 0 && text != "seedrl") return {};
  if (const auto hash = text.find(" #"); hash != std::string::npos) text.resize(hash);
  for (const char* end : {" && ", "; ", " | ", " > ", " 2>"})
    if (const auto at = text.find(end); at != std::string::npos) text.resize(at);
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) {
    if (w.size() >= 2 && (w.front() == '\'' || w.front() == '"') && w.back() == w.front())
      w = w.substr(1, w.size() - 2);
    words.push_back(w);
  }
  words.erase(words.begin());  // "seedrl"
  return words;
}

// Commands in a Markdown file: each line of a fenced block (a command may
// follow "&&"), and each inline code span (which may wrap lines).
std::vector<DocCommand> commands_in_markdown(const fs::path& path) {
  std::vector<DocCommand> out;
  const std::string name = fs::relative(path, kSource).string();
  std::istringstream in(read_text(path));
  bool fenced = false;
  std::string prose;             // the current paragraph outside fences
  std::vector<int> prose_lines;  // the line of each character of `prose`
  auto flush_prose = [&] {
    for (std::size_t open = prose.find('`'); open != std::string::npos;) {
      const std::size_t close = prose.find('`', open + 1);
      if (close == std::string::npos) break;
      std::string span = prose.substr(open + 1, close - open - 1);
      std::replace(span.begin(), span.end(), '\n', ' ');
      if (auto words = words_of(span); !words.empty())
        out.push_back({name + ":" + std::to_string(prose_lines[open]), std::move(words), true});
      open = prose.find('`', close + 1);
    }
    prose.clear();
    prose_lines.clear();
  };
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (trim(line).rfind("```", 0) == 0) {
      flush_prose();
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      std::string rest = line;
      for (std::size_t at; (at = rest.find("&&")) != std::string::npos;) {
        if (auto words = words_of(rest.substr(0, at)); !words.empty())
          out.push_back({name + ":" + std::to_string(number), std::move(words), false});
        rest = rest.substr(at + 2);
      }
      if (auto words = words_of(rest); !words.empty())
        out.push_back({name + ":" + std::to_string(number), std::move(words), false});
      continue;
    }
    if (trim(line).empty()) {
      flush_prose();
      continue;
    }
    prose += line + "\n";
    prose_lines.insert(prose_lines.end(), line.size() + 1, number);
  }
  flush_prose();
  return out;
}

// Commands in a config's comments: "#   build/seedrl train --config ...".
std::vector<DocCommand> commands_in_config(const fs::path& path) {
  std::vector<DocCommand> out;
  std::istringstream in(read_text(path));
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const auto at = line.find("seedrl ");
    if (line.rfind("#", 0) != 0 || at == std::string::npos) continue;
    const auto from = line.compare(at >= 6 ? at - 6 : at, 6, "build/") == 0 ? at - 6 : at;
    if (auto words = words_of(line.substr(from)); !words.empty())
      out.push_back({fs::relative(path, kSource).string() + ":" + std::to_string(number), std::move(words), false});
  }
  return out;
}

std::vector<DocCommand> documented_commands() {
  std::vector<fs::path> markdown = {kSource / "README.md", kSource / "bench" / "README.md"};
  std::vector<fs::path> configs;
  for (const auto& e : fs::directory_iterator(kSource / "docs"))
    if (e.path().extension() == ".md") markdown.push_back(e.path());
  for (const auto& e : fs::directory_iterator(kSource / "configs"))
    if (e.path().extension() == ".toml") configs.push_back(e.path());
  std::sort(markdown.begin(), markdown.end());
  std::sort(configs.begin(), configs.end());
  std::vector<DocCommand> all;
  for (const auto& p : markdown)
    for (auto& c : commands_in_markdown(p)) all.push_back(std::move(c));
  for (const auto& p : configs)
    for (auto& c : commands_in_config(p)) all.push_back(std::move(c));
  return all;
}

// A word a reader replaces: PATH, N, HOST:PORT, LOGDIR/checkpoint.pt, [--x],
// a|b, KEY=V1,V2, ... .
bool is_placeholder(const std::string& word) {
  static const std::regex caps(R"((^|[^A-Za-z])[A-Z][A-Z_]*([^A-Za-z]|$))");
  return word.find_first_of("[]|<>") != std::string::npos || word.find("...") != std::string::npos ||
         word.find("…") != std::string::npos || std::regex_search(word, caps);
}

CLI::App* subcommand(CLI::App& app, const std::string& name) {
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

// Every command's flags, parse only: the callbacks that would run one are off.
struct Commands {
  CLI::App app;
  std::vector<seedrl::CommandRunner> runners;
  Commands() {
    runners = {seedrl::add_train_command(app),  seedrl::add_eval_command(app),  seedrl::add_envs_command(app),
               seedrl::add_play_command(app),   seedrl::add_bench_command(app), seedrl::add_actor_command(app),
               seedrl::add_report_command(app), seedrl::add_export_command(app)};
    for (CLI::App* sub : app.get_subcommands({})) sub->callback(nullptr);
  }
};

// The flag names of a synopsis that `command` lacks.
std::vector<std::string> unknown_flags(CLI::App& command, const std::vector<std::string>& words) {
  std::vector<std::string> unknown;
  for (std::size_t i = 1; i < words.size(); ++i) {
    std::string w = words[i];
    while (!w.empty() && (w.front() == '[' || w.front() == '(')) w.erase(0, 1);
    if (w.rfind("--", 0) != 0) continue;
    w = w.substr(0, w.find_first_of("=[]()|,`"));
    if (w.size() > 2 && w != "--help" && command.get_option_no_throw(w) == nullptr) unknown.push_back(w);
  }
  return unknown;
}

// Files a concrete line names that a user's earlier steps make (checkpoints,
// weights), made empty under `dir` so that the existence checks pass.
void make_named_files(const std::vector<std::string>& words, const fs::path& dir) {
  for (const std::string& w : words) {
    const fs::path p(w);
    if (p.is_absolute() || w.find("..") != std::string::npos) continue;
    if (p.extension() == ".pt" && !fs::exists(dir / p)) {
      fs::create_directories((dir / p).parent_path());
      std::ofstream(dir / p).put('\0');
    }
  }
}

// How parse_error starts when a required flag or argument is missing.
constexpr const char* kRequired = "missing: ";

// "" when `words` parse (and their --config applies), else the error.
std::string parse_error(const std::vector<std::string>& words) {
  Commands commands;
  std::vector<std::string> args = {"seedrl"};
  args.insert(args.end(), words.begin(), words.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  try {
    commands.app.parse(static_cast<int>(argv.size()), argv.data());
    CLI::App* sub = commands.app.get_subcommand(words.front());
    const std::set<std::string> typed = seedrl::given_flags(*sub);
    std::string config_file;
    if (const CLI::Option* config = sub->get_option_no_throw("--config"); config && config->count() > 0) {
      config_file = config->as<std::string>();
      seedrl::apply_config_file(*sub, config_file);
    }
    // What train, bench and actor refuse before they start: a flag the
    // algorithm or the env's family would ignore.
    if (words.front() == "train")
      seedrl::check_algorithm_flags(*sub, sub->get_option("--algo")->as<std::string>(), typed, config_file);
    if (words.front() == "train" || words.front() == "bench" || words.front() == "actor")
      seedrl::check_env_family_flags(*sub, sub->get_option("--env")->as<std::string>());
  } catch (const CLI::CallForHelp&) {
    return "";
  } catch (const CLI::RequiredError& e) {
    return std::string(kRequired) + e.what();
  } catch (const CLI::ParseError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Whether the last word is a flag that wants a value: an inline span that
// names a flag ("`seedrl eval --checkpoint` plays ...") rather than a line.
bool ends_with_bare_flag(const std::vector<std::string>& words) {
  Commands commands;
  CLI::App* sub = subcommand(commands.app, words.front());
  const CLI::Option* last = sub && words.back().rfind("--", 0) == 0 ? sub->get_option_no_throw(words.back()) : nullptr;
  return last && last->get_items_expected_min() > 0;
}

}  // namespace

TEST_CASE("every seedrl command line in the README, docs/ and configs/ parses", "[cli][docs]") {
  const auto commands = documented_commands();
  REQUIRE(commands.size() > 50);  // the extraction found the docs' commands

  // Relative paths as the docs write them: configs/ from the source tree,
  // checkpoints made empty here.
  const fs::path dir = fs::temp_directory_path() / ("seedrl_doc_commands_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::create_directory_symlink(kSource / "configs", dir / "configs");
  const fs::path before = fs::current_path();
  fs::current_path(dir);

  int concrete = 0, synopses = 0;
  for (const DocCommand& c : commands) {
    std::string line;
    for (const auto& w : c.words) line += " " + w;
    INFO(c.where << ": seedrl" << line);
    Commands names;
    CLI::App* sub = subcommand(names.app, c.words.front());
    if (sub == nullptr) {  // prose such as "`seedrl` is one binary"
      CHECK(c.inline_span);
      continue;
    }
    CHECK(unknown_flags(*sub, c.words).empty());
    if (std::any_of(c.words.begin(), c.words.end(), is_placeholder) ||
        (c.inline_span && ends_with_bare_flag(c.words))) {
      ++synopses;
      continue;
    }
    make_named_files(c.words, dir);
    const std::string error = parse_error(c.words);
    if (c.inline_span && error.rfind(kRequired, 0) == 0) {  // prose naming a command: "`seedrl report` writes"
      ++synopses;
      continue;
    }
    ++concrete;
    CHECK(error == "");
  }
  fs::current_path(before);
  fs::remove_all(dir);
  CHECK(concrete > 30);
  CHECK(synopses > 10);
}

TEST_CASE("the docs' command extraction reads fences, spans and placeholders", "[cli][docs]") {
  CHECK(words_of("build/seedrl train --env cartpole  # comment") ==
        std::vector<std::string>{"train", "--env", "cartpole"});
  CHECK(words_of("$ seedrl eval --checkpoint a.pt && ls") == std::vector<std::string>{"eval", "--checkpoint", "a.pt"});
  CHECK(words_of("cmake --build build").empty());
  CHECK(is_placeholder("HOST:PORT"));
  CHECK(is_placeholder("LOGDIR/best.pt"));
  CHECK(is_placeholder("N"));
  CHECK(is_placeholder("random|const:K"));
  CHECK(is_placeholder("[--greedy]"));
  CHECK_FALSE(is_placeholder("GFootball/academy_empty_goal_close-v0"));
  CHECK_FALSE(is_placeholder("atari:pong"));
  CHECK_FALSE(is_placeholder("runs/cartpole/checkpoint.pt"));
  // A flag that does not exist is caught, in a concrete line as in a synopsis.
  Commands commands;
  CLI::App* train = commands.app.get_subcommand("train");
  CHECK(unknown_flags(*train, {"train", "--env", "cartpole", "--no-such-flag", "1"}) ==
        std::vector<std::string>{"--no-such-flag"});
  CHECK(unknown_flags(*train, {"train", "[--eval-every-s", "S]"}).empty());
  CHECK(parse_error({"train", "--env", "cartpole", "--hidden", "64,64"}) == "");
  CHECK(parse_error({"train", "--env", "cartpole", "--actors", "many"}) != "");
  CHECK(parse_error({"train", "--env", "no-such-env"}) != "");
  // A flag the algorithm or the env would ignore is caught as train refuses it.
  CHECK(parse_error({"train", "--algo", "r2d2", "--entropy-cost", "0.1"}) != "");
  CHECK(parse_error({"train", "--env", "cartpole", "--screen-size", "64"}) != "");
}
