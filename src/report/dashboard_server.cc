#include "seedrl/report/dashboard_server.h"

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "seedrl/report/dygraphs_assets.h"
#include "seedrl/report/html_report.h"
#include "seedrl/report/report.h"
#include "seedrl/report/text.h"
#include "seedrl/util/clock.h"
#include "seedrl/util/constant_time_equal.h"
#include "seedrl/util/error_text.h"

namespace seedrl::report {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// A request is a GET of a short URL: anything larger is refused unread.
constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
constexpr std::uint64_t kMaxBodyBytes = 1024;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A query parameter's value, percent-decoded ('+' as space); nullopt when absent.
std::optional<std::string> query_value(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) != key) continue;
    std::string out;
    const std::string_view raw = eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '%' && i + 2 < raw.size() && hex_value(raw[i + 1]) >= 0 && hex_value(raw[i + 2]) >= 0) {
        out += static_cast<char>(hex_value(raw[i + 1]) * 16 + hex_value(raw[i + 2]));
        i += 2;
      } else {
        out += raw[i] == '+' ? ' ' : raw[i];
      }
    }
    return out;
  }
  return std::nullopt;
}

Response text_response(http::status status, const std::string& text, unsigned version) {
  Response r{status, version};
  r.set(http::field::content_type, "text/plain; charset=utf-8");
  r.body() = text + "\n";
  return r;
}

}  // namespace

struct DashboardServer::Impl {
  // Before io: sessions, destroyed with the io_context, still count down.
  DashboardConfig config;
  DygraphsAssets dygraphs;
  int connections = 0;  // the io thread's only
  std::uint16_t bound_port = 0;

  // The last page and data built (the io thread's only).
  std::optional<SteadyClock::time_point> built_at;
  std::string page_html, data_json, build_error;

  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::thread thread;

  void accept();
  void rebuild_if_stale();
  Response respond(const Request& request);
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(DashboardServer::Impl& server, tcp::socket socket) : server_(server), stream_(std::move(socket)) {
    ++server_.connections;
  }
  ~Session() { --server_.connections; }

  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxBodyBytes);
    stream_.expires_after(server_.config.idle_timeout);  // the whole request, not each byte
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

 private:
  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted ||
        ec == asio::error::connection_reset || ec == asio::error::eof) {
      close();
      return;
    }
    if (ec) {  // malformed or too large: say so, then close
      const http::status status = ec == http::error::header_limit ? http::status::request_header_fields_too_large
                                  : ec == http::error::body_limit ? http::status::payload_too_large
                                                                  : http::status::bad_request;
      send(text_response(status, "bad request: " + ec.message(), 11), true);
      return;
    }
    const Request& request = parser_->get();
    send(server_.respond(request), !request.keep_alive());
  }

  void send(Response response, bool close_after) {
    response_ = std::move(response);
    response_.set(http::field::server, "seedrl");
    response_.set(http::field::cache_control, "no-store");
    response_.set("X-Content-Type-Options", "nosniff");
    response_.set("Referrer-Policy", "no-referrer");  // the URL may carry the token
    response_.keep_alive(!close_after);
    response_.prepare_payload();
    stream_.expires_after(server_.config.idle_timeout);
    http::async_write(stream_, response_, [self = shared_from_this(), close_after](beast::error_code ec, std::size_t) {
      if (ec || close_after)
        self->close();
      else
        self->read();
    });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.close();
  }

  DashboardServer::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_{kMaxHeaderBytes + kMaxBodyBytes};
  std::optional<http::request_parser<http::string_body>> parser_;
  Response response_;
};

}  // namespace

void DashboardServer::Impl::accept() {
  acceptor.async_accept(io, [this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;  // stopping
    if (!ec) {
      if (connections < config.max_connections) std::make_shared<Session>(*this, std::move(socket))->read();
      // else: the socket closes as it goes out of scope
    }
    accept();
  });
}

void DashboardServer::Impl::rebuild_if_stale() {
  const auto now = SteadyClock::now();
  if (built_at && now - *built_at < config.rebuild_every) return;
  built_at = now;
  try {
    const ReportPage page = build_page({config.logdir});
    RenderOptions options;
    options.live_poll_s = config.poll_s;
    page_html = render_html(page, dygraphs, options);
    data_json = page_data(page, true).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    build_error.clear();
  } catch (const std::exception& e) {
    build_error = one_line(error_text(e));
  }
}

Response DashboardServer::Impl::respond(const Request& request) {
  const unsigned version = request.version();
  if (request.method() != http::verb::get) {
    Response r = text_response(http::status::method_not_allowed, "only GET", version);
    r.set(http::field::allow, "GET");
    return r;
  }
  const std::string_view target(request.target().data(), request.target().size());
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query = question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
  if (!config.token.empty()) {
    const std::optional<std::string> token = query_value(query, "token");
    if (!token || !constant_time_equal(*token, config.token))
      return text_response(http::status::unauthorized,
                           "unauthorized: open the URL with ?token=<the --token-file secret>", version);
  }
  const bool page = path == "/" || path == "/index.html";
  if (!page && path != "/data") return text_response(http::status::not_found, "not found", version);
  rebuild_if_stale();
  if (!build_error.empty())
    return text_response(http::status::internal_server_error, "the run cannot be shown: " + build_error, version);
  Response r{http::status::ok, version};
  r.set(http::field::content_type, page ? "text/html; charset=utf-8" : "application/json");
  r.body() = page ? page_html : data_json;
  return r;
}

DashboardServer::DashboardServer(DashboardConfig config) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.config = std::move(config);
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(
        fmt::format("--dashboard: cannot listen on {}:{}: {}", s.config.host, s.config.port, why));
  };
  try {
    s.dygraphs = load_dygraphs();
  } catch (const std::exception& e) {
    throw std::invalid_argument("--dashboard: " + error_text(e));
  }
  beast::error_code ec;
  const auto address = asio::ip::make_address(s.config.host == "localhost" ? "127.0.0.1" : s.config.host, ec);
  if (ec) throw fail("not an IP address");
  const tcp::endpoint endpoint(address, s.config.port);
  s.acceptor.open(endpoint.protocol(), ec);
  if (!ec) s.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) s.acceptor.bind(endpoint, ec);
  if (!ec) s.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw fail(ec.message());
  s.bound_port = s.acceptor.local_endpoint().port();
  s.accept();
  s.thread = std::thread([&s] {
    for (;;) {
      try {
        s.io.run();
        return;
      } catch (const std::exception& e) {  // one request's failure, not the server's
        spdlog::warn("dashboard: {}", error_text(e));
      }
    }
  });
}

DashboardServer::~DashboardServer() {
  impl_->io.stop();
  impl_->thread.join();
}

std::uint16_t DashboardServer::port() const { return impl_->bound_port; }

std::string DashboardServer::url() const {
  const std::string& host = impl_->config.host;
  return fmt::format("http://{}:{}/", host.find(':') != std::string::npos ? "[" + host + "]" : host, impl_->bound_port);
}

}  // namespace seedrl::report
