# zsh -f zsh-complete.zsh SITE_FUNCTIONS LINE EXPECTED
# Starts an interactive zsh on a pseudo-terminal with SITE_FUNCTIONS on fpath and compinit, types LINE
# and TAB, and prints what the terminal shows, once EXPECTED appears in it or after 10 s.
zmodload zsh/zpty
zpty -b z "env -i HOME=$HOME TERM=dumb PATH=$PATH zsh -f -i"
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; echo RE\"\"ADY"
zpty -r z out '*READY*'
zpty -w -n z "$2"$'\t'
acc=
for i in {1..100}; do
  while zpty -r -t z chunk; do acc+=$chunk; done
  [[ $acc == *$3* ]] && break
  sleep 0.1
done
print -r -- "$acc"
zpty -d z
