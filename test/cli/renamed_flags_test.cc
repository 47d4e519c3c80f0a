// A renamed flag's old name keeps working: the command line is rewritten to
// the current name before CLI11 sees it, and errors name the flag as typed.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "seedrl/cli/renamed_flags.h"

using namespace seedrl;

namespace {

std::vector<std::string> args_of(const CurrentFlagNames& f) {
  return std::vector<std::string>(f.argv(), f.argv() + f.argc());
}

}  // namespace

TEST_CASE("the old flag name --learner-cores is read as --learner-cpus, alone or with =", "[cli][renamed_flags]") {
  CHECK(current_flag_name("--learner-cores") == "--learner-cpus");
  CHECK(current_flag_name("--learner-cpus") == "--learner-cpus");
  CHECK(current_flag_name("--actors") == "--actors");

  const char* argv[] = {"seedrl", "train", "--learner-cores", "share", "--actors", "4", "--learner-cores=auto"};
  const CurrentFlagNames f(7, argv);
  CHECK(args_of(f) ==
        std::vector<std::string>{"seedrl", "train", "--learner-cpus", "share", "--actors", "4", "--learner-cpus=auto"});
  REQUIRE(f.renamed().size() == 1);  // one warning however often it is given
  CHECK(f.renamed().front() == std::pair<std::string, std::string>{"--learner-cores", "--learner-cpus"});
}

TEST_CASE("only flags are renamed: values, positionals after -- and the current name stay", "[cli][renamed_flags]") {
  const char* argv[] = {"seedrl",         "train",   "--logdir", "learner-cores",
                        "--learner-cpus", "reserve", "--",       "--learner-cores"};
  const CurrentFlagNames f(8, argv);
  CHECK(args_of(f) == std::vector<std::string>{"seedrl", "train", "--logdir", "learner-cores", "--learner-cpus",
                                               "reserve", "--", "--learner-cores"});
  CHECK(f.renamed().empty());
  CHECK(f.as_typed("--learner-cpus: 'pin' is not auto") == "--learner-cpus: 'pin' is not auto");
}

TEST_CASE("errors about a flag given by its old name name it as typed", "[cli][renamed_flags]") {
  const char* argv[] = {"seedrl", "train", "--learner-cores", "pin"};
  const CurrentFlagNames f(4, argv);
  CHECK(f.as_typed("--learner-cpus: pin not in {auto,reserve,share}") ==
        "--learner-cores: pin not in {auto,reserve,share}");
  CHECK(f.as_typed("--learner-cpus reserve: 1 learner thread(s); see --learner-cpus") ==
        "--learner-cores reserve: 1 learner thread(s); see --learner-cores");
  // Only whole flag names: a longer flag that starts with it is another flag.
  CHECK(with_flag_as_typed("--learner-cpus-x and --learner-cpus", "--learner-cpus", "--learner-cores") ==
        "--learner-cpus-x and --learner-cores");
  CHECK(with_flag_as_typed("no flag here", "--learner-cpus", "--learner-cores") == "no flag here");
}
