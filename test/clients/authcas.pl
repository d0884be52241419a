#!/usr/bin/perl
# Validates one ticket with AuthCAS (which always speaks HTTPS/1.0) and prints what it concluded as JSON.
# Usage: authcas.pl <https cas base URL> <CA file> <validateST|validatePT> <service> <ticket>
use strict;
use warnings;
use AuthCAS;
use JSON::PP;

my ( $cas_url, $ca_file, $method, $service, $ticket ) = @ARGV;
die "usage: $0 <cas-url> <ca-file> <method> <service> <ticket>\n" unless defined $ticket;

my $cas = AuthCAS->new( casUrl => $cas_url, CAFile => $ca_file );
my ($user) = $cas->$method( $service, $ticket );
my %outcome = defined $user ? ( outcome => 'success', user => $user ) : ( outcome => 'failure', error => AuthCAS::get_errors() // '' );
print JSON::PP->new->canonical->encode( \%outcome ), "\n";
