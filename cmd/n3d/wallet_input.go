package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// The prompts are neo-go's, so that expect scripts written for it match.
const (
	promptPassword    = "Enter password > "
	promptNewPassword = "Enter new password > "
	promptOldPassword = "Enter old password > "
	promptConfirm     = "Confirm password > "
	promptAccountName = "Enter the name of the account > "
	promptConsent     = "Are you sure? [y/N]: "
)

// maxInputLine bounds one line read from stdin (a password, a label).
const maxInputLine = 64 << 10

var (
	errPhraseMismatch = errors.New("the entered pass-phrases do not match. Maybe you have misspelled them")
	errNoInput        = errors.New("no input: stdin is not a terminal and has no more lines (give the password on stdin or use --wallet-config)")
	errLineTooLong    = errors.New("input line too long")
)

// prompter asks the user for passwords and names. When stdin is a terminal,
// passwords are read without echo; otherwise (scripts, tests) each answer
// is one line of stdin, "\n" or "\r\n" terminated. Prompts go to a separate
// writer (stderr) so stdout carries only the command's output.
type prompter struct {
	in     *bufio.Reader
	ttyFD  int // -1 when stdin is not a terminal
	prompt io.Writer
}

func newPrompter(stdin io.Reader, prompt io.Writer) *prompter {
	if stdin == nil {
		stdin = os.Stdin
	}
	fd := -1
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fd = int(f.Fd())
	}
	return &prompter{in: bufio.NewReader(stdin), ttyFD: fd, prompt: prompt}
}

// setInput replaces what is left of stdin (after a wallet was read from it).
func (p *prompter) setInput(r io.Reader) { p.in = bufio.NewReader(r) }

// skipLineEnd drops blanks up to and including the next newline, so an
// answer can follow a wallet given on stdin on the next line.
func (p *prompter) skipLineEnd() {
	for {
		b, err := p.in.ReadByte()
		if err != nil {
			return
		}
		switch b {
		case ' ', '\t', '\r':
			continue
		case '\n':
			return
		}
		_ = p.in.UnreadByte() // cannot fail right after ReadByte
		return
	}
}

// readLine asks for one line of text (echoed on a terminal).
func (p *prompter) readLine(prompt string) (string, error) {
	fmt.Fprint(p.prompt, prompt)
	if p.ttyFD < 0 {
		// The answer is not echoed: end the prompt's line ourselves.
		defer fmt.Fprintln(p.prompt)
	}
	return p.line()
}

// line reads one line of stdin without its "\n" or "\r\n".
func (p *prompter) line() (string, error) {
	var sb strings.Builder
	for {
		chunk, err := p.in.ReadSlice('\n')
		sb.Write(chunk)
		if sb.Len() > maxInputLine {
			return "", errLineTooLong
		}
		switch {
		case err == nil:
			return strings.TrimRight(sb.String(), "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && sb.Len() > 0:
			return strings.TrimRight(sb.String(), "\r\n"), nil
		case errors.Is(err, io.EOF):
			return "", errNoInput
		default:
			return "", fmt.Errorf("read input: %w", err)
		}
	}
}

// readPassword asks for a password, without echo on a terminal.
func (p *prompter) readPassword(prompt string) (string, error) {
	if p.ttyFD < 0 || p.in.Buffered() > 0 {
		return p.readLine(prompt)
	}
	fmt.Fprint(p.prompt, prompt)
	b, err := term.ReadPassword(p.ttyFD)
	fmt.Fprintln(p.prompt)
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	return string(b), nil
}

// readNewPassword asks for a new password twice and checks both agree.
func (p *prompter) readNewPassword() (string, error) {
	pass, err := p.readPassword(promptNewPassword)
	if err != nil {
		return "", err
	}
	again, err := p.readPassword(promptConfirm)
	if err != nil {
		return "", err
	}
	if pass != again {
		return "", errPhraseMismatch
	}
	return pass, nil
}

// consent asks a yes/no question; anything but y/yes (or no answer) is no.
func (p *prompter) consent() bool {
	ans, err := p.readLine(promptConsent)
	if err != nil {
		return false
	}
	ans = strings.ToLower(strings.TrimSpace(ans))
	return ans == "y" || ans == "yes"
}
