package i18n

var french = [numMsgs]string{}
