package i18n

var german = [numMsgs]string{}
