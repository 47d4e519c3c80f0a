#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "../cli/one_line_error.h"
#include "../cli/run_binary.h"
#include "gif_decode.h"
#include "seedrl/report/video_embed.h"

using namespace seedrl;

TEST_CASE("base64 matches RFC 4648's test vectors", "[video][report]") {
  CHECK(report::base64("") == "");
  CHECK(report::base64("f") == "Zg==");
  CHECK(report::base64("fo") == "Zm8=");
  CHECK(report::base64("foo") == "Zm9v");
  CHECK(report::base64("foob") == "Zm9vYg==");
  CHECK(report::base64("fooba") == "Zm9vYmE=");
  CHECK(report::base64("foobar") == "Zm9vYmFy");
  CHECK(report::base64(std::string("\xff\xfe\x00", 3)) == "//4A");
}

TEST_CASE("a report inlines LOGDIR/video.gif, and leaves out one over the cap with a line", "[video][report]") {
  const std::string dir = test::temp_dir("report_video");
  CHECK(report::video_html(dir).empty());
  const std::string bytes("GIF89a\x01\x00\x01\x00", 10);
  {
    std::ofstream out(dir + "/video.gif", std::ios::binary);
    out << bytes;
  }
  CHECK_THAT(report::video_html(dir), Catch::Contains("src=\"data:image/gif;base64," + report::base64(bytes) + "\""));
  std::filesystem::resize_file(dir + "/video.gif", report::kMaxEmbeddedVideoBytes + 1);
  const std::string note = report::video_html(dir);
  CHECK_THAT(note, Catch::Contains("left out") && Catch::Contains("20 MB"));
  CHECK_THAT(note, !Catch::Contains("data:"));
}

TEST_CASE("train --record-every-s leaves LOGDIR/video.gif, shown by the report", "[video][cli][train]") {
  const std::string dir = test::temp_dir("train_record");
  // 1000 s: no periodic video in so short a run, only the one at the end.
  test::RunResult r = test::run_seedrl({"train", "--env", "cartpole", "--max-frames", "2000", "--actors", "2",
                                        "--batch-size", "2", "--logdir", dir, "--record-every-s", "1000"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("video: " + dir + "/video.gif"));
  const auto frames = test::decode_gif(dir + "/video.gif");
  CHECK(frames.size() >= 2);  // a reset and at least one step
  CHECK(frames.front().image.width == 600);
  CHECK_THAT(test::read_file(dir + "/report.html"), Catch::Contains("data:image/gif;base64,"));
}

TEST_CASE("train --record-every-s refuses an env without renderer in one line", "[video][cli][train]") {
  const std::string dir = test::temp_dir("train_record_bad");
  test::check_one_line_error(
      {"train", "--env", "synthetic:atari", "--max-frames", "1000", "--logdir", dir, "--record-every-s", "5"},
      "--record-every-s: synthetic:atari has no renderer");
}

TEST_CASE("train --record-every-s records new checkpoints while the run goes on", "[video][cli][train]") {
  const std::string dir = test::temp_dir("train_record_periodic");
  // Stopped by SIGINT once a video was logged: the run's end records none
  // after a signal, so that video came from the periodic thread.
  test::RunResult r = test::run_seedrl_and_signal_when(
      {"train", "--env", "cartpole", "--max-frames", "100000000", "--actors", "2", "--batch-size", "2", "--logdir", dir,
       "--checkpoint-every-s", "0.2", "--record-every-s", "0.2"},
      [](const std::string& output, int) { return output.find("video: ") != std::string::npos; }, SIGINT);
  INFO(r.output);
  CHECK(r.status == 130);
  CHECK(test::decode_gif(dir + "/video.gif").size() >= 2);
}
