#!/usr/bin/perl
# LemonLDAP::NG (Debian 12's liblemonldap-ng-portal-perl, 2.16) as an independent OpenID provider
# for the integration tests: its real portal, as a PSGI app under Plack's HTTP::Server::PSGI.
#
# Usage: LLNG_TOTP_SECRET=BASE32 LLNG_CLIENT_SECRET=TEXT perl llng_provider.pl WORKDIR
# Prints the port it listens on (127.0.0.1) on the first line of stdout once the portal answers,
# then serves until killed, or until whoever reads its stdout goes away (the test process ended).
# Everything lives in WORKDIR: lemonldap-ng.ini and conf/lmConf-1.json (filled from the templates
# beside this script), the SSO and persistent sessions, the cache. Nothing in /etc or /var is read
# or written. LLNG_LOGLEVEL (default: notice) sets the portal's log level; the log goes to stderr.
#
# Issuer: http://localhost:PORT (a host name, since LemonLDAP::NG's SSO cookie needs a domain, and
# a loopback one, so a login script may type a password into it over plain http; the cookie's
# domain attribute is taken off on the way out, below). Demo users
# (password = login): dwho, msmith, jharkness and ianchesterton (added here, one for the WebAuthn test, one for its recording), and rtyler, who has a TOTP second factor (SHA1, 6 digits,
# 30 s) with the secret LLNG_TOTP_SECRET, as have the users of LLNG_TOTP_USERS with theirs. Public client "webauth-public" (PKCE required) and
# confidential client "webauth-confidential" (secret LLNG_CLIENT_SECRET, client_secret_basic),
# both with redirect and post-logout redirect URI com.example.webauth:/callback, refresh tokens,
# and the consent screen, remembered in the persistent session. WebAuthn is a second factor any
# user may register on /2fregisters/webauthn; its relying party ID is the portal's host.
use strict;
use warnings;
use Crypt::OpenSSL::RSA;
use File::Basename qw(dirname);
use File::Path qw(make_path);
use HTTP::Server::PSGI;
use IO::Poll qw(POLLERR POLLHUP POLLIN);
use IO::Socket::INET;
use JSON qw(decode_json encode_json to_json);
use Plack::App::File;
use Plack::Builder;
use Plack::Util;

my $workdir = shift or die "usage: $0 WORKDIR\n";
my $totpSecret = $ENV{LLNG_TOTP_SECRET} or die "$0: set LLNG_TOTP_SECRET (base32) for rtyler's TOTP device\n";
my $clientSecret = $ENV{LLNG_CLIENT_SECRET} or die "$0: set LLNG_CLIENT_SECRET for the confidential client\n";
my $templates = dirname(__FILE__);
$| = 1;

my $listener = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 128, ReuseAddr => 1, Proto => 'tcp')
  or die "$0: cannot listen on 127.0.0.1: $!\n";
my $port = $listener->sockport;
my $host = 'localhost';
my $portal = "http://$host:$port";

make_path(map { "$workdir/$_" } qw(conf sessions/lock psessions/lock cache));

sub slurp { my ($path) = @_; open my $f, '<', $path or die "$0: $path: $!\n"; local $/; return <$f> }
sub spew { my ($path, $text) = @_; open my $f, '>', $path or die "$0: $path: $!\n"; print $f $text; close $f }

# The configuration template, with its placeholders filled in every string.
my $key = Crypt::OpenSSL::RSA->generate_key(2048);
my %fill = (
    HOST => $host, PORTAL => $portal, WORKDIR => $workdir, CONFIDENTIAL_SECRET => $clientSecret,
    SIGNING_KEY => $key->get_private_key_string, SIGNING_PUBLIC_KEY => $key->get_public_key_x509_string,
    LOGLEVEL => $ENV{LLNG_LOGLEVEL} // 'notice',
    NOW => time,
);
sub filled { my ($text) = @_; $text =~ s/\@([A-Z_]+)\@/exists $fill{$1} ? $fill{$1} : die "$0: no value for \@$1\@\n"/ge; return $text }
sub fillTree {
    my ($node) = @_;
    return { map { filled($_) => fillTree($node->{$_}) } keys %$node } if ref $node eq 'HASH';
    return [ map { fillTree($_) } @$node ] if ref $node eq 'ARRAY';
    return ref $node ? $node : filled($node);
}
spew("$workdir/conf/lmConf-1.json", to_json(fillTree(decode_json(slurp("$templates/lmConf.template.json"))), { pretty => 1 }));
spew("$workdir/lemonldap-ng.ini", filled(slurp("$templates/lemonldap-ng.template.ini")));
$ENV{LLNG_DEFAULTCONFFILE} = "$workdir/lemonldap-ng.ini";

# rtyler's TOTP device, registered beforehand in his persistent session, where the portal's own
# registration would put it (_2fDevices; the secret stored in clear, totp2fEncryptSecret is off);
# and the users of LLNG_TOTP_USERS ("name=BASE32 ...", optional), each a Demo account with a TOTP
# device of its own, so that tests signing several in one after another wait for no time step.
my %totpUsers = (rtyler => $totpSecret, map { split /=/, $_, 2 } split ' ', $ENV{LLNG_TOTP_USERS} // '');
require Lemonldap::NG::Common::Session;
require Lemonldap::NG::Common::Util;
for my $user (sort keys %totpUsers) {
    my $persistent = Lemonldap::NG::Common::Session->new({
        storageModule => 'Apache::Session::File',
        storageModuleOptions => { Directory => "$workdir/psessions", LockDirectory => "$workdir/psessions/lock" },
        id => Lemonldap::NG::Common::Util::getPSessionID($user), force => 1, kind => 'Persistent',
        info => { _session_uid => $user,
                  _2fDevices => encode_json([{ type => 'TOTP', name => 'test authenticator', epoch => time, _secret => $totpUsers{$user} }]) },
    });
    die "$0: cannot write ${user}'s persistent session: " . ($persistent->error // 'unknown error') . "\n" if $persistent->error;
}

# The portal's cookies, made host-only: LemonLDAP::NG always gives its SSO cookie a domain
# (".localhost" here), and WebKit's cookie jar (libsoup) refuses a cookie for a single-label domain.
sub hostOnlyCookies {
    my ($app) = @_;
    return sub {
        Plack::Util::response_cb($app->(@_), sub {
            my ($headers) = ($_[0][1]);
            for (my $i = 0; $i < @$headers; $i += 2) {
                $headers->[$i + 1] =~ s/;\s*domain=[^;]*//i if lc $headers->[$i] eq 'set-cookie';
            }
        });
    };
}

# WebAuthn's relying party ID is a host, never host:port (WebAuthn §5.1.3: an rpId is a domain).
# LemonLDAP::NG 2.16 builds it from the portal URL's authority ("localhost:PORT") and has no setting
# for it (its code says "TODO make this configurable"; 2.17 adds webauthnRpId): the two classes
# that compose its WebAuthn role get the portal's host instead, as that setting would give.
require URI;
require Lemonldap::NG::Portal::UserDB::Demo;
$Lemonldap::NG::Portal::UserDB::Demo::demoAccounts{jharkness} = { uid => 'jharkness', cn => 'Jack Harkness', mail => 'jharkness@badwolf.org' };
$Lemonldap::NG::Portal::UserDB::Demo::demoAccounts{ianchesterton} = { uid => 'ianchesterton', cn => 'Ian Chesterton', mail => 'ianchesterton@badwolf.org' };
$Lemonldap::NG::Portal::UserDB::Demo::demoAccounts{$_} //= { uid => $_, cn => $_, mail => "$_\@badwolf.org" } for keys %totpUsers;
require Lemonldap::NG::Portal::2F::WebAuthn;
require Lemonldap::NG::Portal::2F::Register::WebAuthn;
for my $class (qw(Lemonldap::NG::Portal::2F::WebAuthn Lemonldap::NG::Portal::2F::Register::WebAuthn)) {
    no strict 'refs';
    no warnings 'redefine';
    *{"${class}::_build_rp_id"} = sub { URI->new($_[0]->{conf}->{portal})->host };
}

require Lemonldap::NG::Portal::Main;
my $app = builder {
    mount '/static' => Plack::App::File->new(root => '/usr/share/lemonldap-ng/portal/htdocs/static')->to_app;
    mount '/javascript' => Plack::App::File->new(root => '/usr/share/javascript')->to_app;
    mount '/' => hostOnlyCookies(Lemonldap::NG::Portal::Main->run({}));
};

# Ready when the portal serves its discovery document (a configuration error answers otherwise).
my $probe = $app->({ REQUEST_METHOD => 'GET', SCRIPT_NAME => '', PATH_INFO => '/.well-known/openid-configuration',
                     REQUEST_URI => '/.well-known/openid-configuration', QUERY_STRING => '', SERVER_NAME => $host,
                     SERVER_PORT => $port, HTTP_HOST => "$host:$port", SERVER_PROTOCOL => 'HTTP/1.1',
                     'psgi.url_scheme' => 'http', 'psgi.input' => do { open my $in, '<', \''; $in },
                     'psgi.errors' => \*STDERR, 'psgi.version' => [1, 1], 'psgi.multithread' => 0,
                     'psgi.multiprocess' => 0, 'psgi.run_once' => 0, 'psgi.streaming' => 0, 'psgi.nonblocking' => 0 });
die "$0: the portal did not start: its discovery document answered HTTP $probe->[0]\n"
  unless ref $probe eq 'ARRAY' && $probe->[0] == 200;

# A watcher process ends the server when the reader of its stdout goes away (the pipe's write end
# then polls POLLERR), so a test run that ends or crashes leaves no portal behind; it ends itself
# when the server ends (its pipe from the server reaches end of file).
pipe(my $serverGone, my $serverAlive) or die "$0: pipe: $!\n";
my $server = $$;
defined(my $watcher = fork) or die "$0: fork: $!\n";
if ($watcher == 0) {
    close $serverAlive;
    my $poll = IO::Poll->new;
    $poll->mask(\*STDOUT => POLLERR | POLLHUP);
    $poll->mask($serverGone => POLLIN);
    $poll->poll until $poll->events(\*STDOUT) || $poll->events($serverGone);
    kill 'KILL', $server if $poll->events(\*STDOUT);
    exit 0;
}
close $serverGone;

print "$port\n";
HTTP::Server::PSGI->new(listen_sock => $listener, host => '127.0.0.1', port => $port, timeout => 30)->run($app);
